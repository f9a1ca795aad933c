// Shared pieces of the storage conformance suite.
import assert from 'node:assert/strict';
import { StorageError, type Storage, type StorageErrorCode, type WatchEvent, type Watcher, type WatchOptions } from '../../../internal/storage/storage.ts';

/** Options a conformance test may ask of the store under test; factories must honour them. */
export interface StorageFactoryOptions {
  /** History retention; the store compacts older history on its own, within a few seconds. */
  readonly retentionMs?: number;
  /** Events a watcher may lag behind before it is closed with `WatcherTooSlow`. */
  readonly watchBufferEventsMax?: number;
}

/** A store under test. `restart`, when given, closes it and reopens the same data; it returns the new handle. */
export interface StorageUnderTest {
  readonly storage: Storage;
  cleanup(): Promise<void>;
  restart?(): Promise<Storage>;
}

/** Builds a fresh, empty store for one test. */
export type MakeStorage = (options?: StorageFactoryOptions) => Promise<StorageUnderTest>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes of a string value. */
export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A value as a string. */
export function text(value: Uint8Array): string {
  return decoder.decode(value);
}

/** Asserts that `action` fails with a StorageError of `code`. */
export async function rejectsWithCode(action: () => Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await action();
  } catch (error) {
    assert.ok(error instanceof StorageError, `expected StorageError ${code}, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected StorageError ${code}, but it succeeded`);
}

/** Asserts that a watch fails with `code`, either when started or at its first event. */
export async function watchFailsWith(storage: Storage, options: WatchOptions, code: StorageErrorCode): Promise<void> {
  await rejectsWithCode(async () => {
    const watcher = storage.watch(options);
    try {
      await watcher[Symbol.asyncIterator]().next();
    } finally {
      watcher.stop();
    }
  }, code);
}

/** Reads events from a watcher until `until` says stop, failing after `timeoutMs`. */
export async function collect(
  watcher: Watcher,
  until: (events: WatchEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  const iterator = watcher[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  while (!until(events)) {
    const remaining = deadline - Date.now();
    assert.ok(remaining > 0, `watch did not deliver in time; got ${events.length} events`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`watch timed out after ${events.length} events`)), remaining);
    });
    try {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next.done === true) break;
      events.push(next.value);
    } finally {
      clearTimeout(timer);
    }
  }
  return events;
}

/** The revision of a watch event. */
export function eventRevision(event: WatchEvent): number {
  return event.type === 'progress' ? event.revision : event.kv.modRevision;
}

/** Polls `condition` until it holds, failing after `timeoutMs`. */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs `body` against a fresh store and always cleans it up. */
export async function withStorage(
  makeStorage: MakeStorage,
  options: StorageFactoryOptions,
  body: (storage: Storage, under: StorageUnderTest) => Promise<void>,
): Promise<void> {
  const under = await makeStorage(options);
  try {
    await body(under.storage, under);
  } finally {
    await under.cleanup();
  }
}
