// An in-process replica (startReplica) named orch-1 in a fresh temporary directory, for the
// maintenance API's integration tests: stopped, its directory removed and its client closed when the
// test ends, however it ends.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Agent } from 'undici';
import { Logger } from '../../../internal/logging/logger.ts';
import { startReplica, type Replica } from '../../../internal/replica/start-replica.ts';
import { freePorts } from '../../support/free-ports.ts';

/** The replica, where its data is, and an HTTPS dispatcher that trusts its CA. */
export interface OneReplica {
  readonly replica: Replica;
  /** The temporary directory (removed at the end): the replica's data and PKI are in it. */
  readonly dir: string;
  readonly dataDir: string;
  /** orch-1's peer address (127.0.0.1:<port>). */
  readonly peerAddress: string;
  readonly dispatcher: Agent;
  /** https://127.0.0.1:<api port> */
  readonly url: string;
}

/**
 * Starts orch-1 (fast Raft ticks) with `adminToken`; `otherPeers` more peer addresses are given to
 * it under the names orch-2, orch-3, ... and never started (a voter that never answers).
 */
export async function startOneReplica(t: TestContext, options: { readonly dirPrefix: string; readonly adminToken: string; readonly otherPeers?: number }): Promise<OneReplica> {
  const dir = await mkdtemp(join(tmpdir(), options.dirPrefix));
  const [peer, ...others] = await freePorts(1 + (options.otherPeers ?? 0));
  const started: { replica?: Replica } = {};
  t.after(async () => {
    await started.replica?.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });
  const peers: Record<string, string> = { 'orch-1': `127.0.0.1:${peer}` };
  others.forEach((port, i) => (peers[`orch-${i + 2}`] = `127.0.0.1:${port}`));
  const dataDir = join(dir, 'orch-1');
  const replica = (started.replica = await startReplica({
    name: 'orch-1', dataDir, pkiDir: join(dir, 'pki'), adminToken: options.adminToken, apiDomain: 'k8s.io', retentionMs: 60_000, tickMs: 20, electionTicks: 10,
    logger: Logger.create({ component: 'orch-apiserver', replica: 'orch-1', verbosity: 0, destination: { write: () => undefined } }),
    api: { host: '127.0.0.1', port: 0 }, peerListen: `127.0.0.1:${peer}`, peers,
  }));
  const dispatcher = new Agent({ connect: { ca: readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8') } });
  t.after(() => dispatcher.close());
  return { replica, dir, dataDir, peerAddress: peers['orch-1'] ?? '', dispatcher, url: `https://127.0.0.1:${replica.api.port}` };
}
