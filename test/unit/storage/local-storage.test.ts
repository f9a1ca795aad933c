// The conformance suite against the single-replica store (no Raft).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import type { Storage } from '../../../internal/storage/storage.ts';
import { runStorageTests, type StorageFactoryOptions } from './conformance.ts';

runStorageTests('local storage on a data directory', async (options: StorageFactoryOptions = {}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-local-storage-'));
  const open = (): Promise<Storage> => openLocalStorage({ dataDir, ...options });
  let storage = await open();
  return {
    storage,
    restart: async () => {
      await storage.close();
      storage = await open();
      return storage;
    },
    cleanup: async () => {
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

runStorageTests('local storage in memory', async (options: StorageFactoryOptions = {}) => {
  const storage = await openLocalStorage({ dataDir: ':memory:', ...options });
  return { storage, cleanup: () => storage.close() };
});
