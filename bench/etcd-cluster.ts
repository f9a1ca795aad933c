// A 3-member etcd cluster on loopback, the reference store, set up as orch's replicas are: fsync on
// (no --unsafe-no-fsync) and mutual TLS between members (as kubeadm runs etcd), with plain HTTP on
// the client hop for both. Every member is killed by pid on stop and at process exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureClusterPki } from '../internal/certificates/index.ts';
import { killPid, onCleanup } from './cleanup.ts';
import type { GatewayCluster } from './etcd-client.ts';
import { waitHttpOk } from './http-wait.ts';
import { freePorts } from '../test/support/free-ports.ts';

/** A running etcd cluster: its client URLs (one per member) and a stop that kills every member. */
export type EtcdCluster = GatewayCluster;

/** How to start the reference cluster. */
export interface EtcdClusterOptions {
  readonly dataDir: string;
  readonly members: number;
  readonly readyTimeoutMs: number;
}

/** Starts the members, waits until each answers /health, and kills them all if that fails. */
export async function startEtcdCluster(options: EtcdClusterOptions): Promise<EtcdCluster> {
  const ports = await freePorts(options.members * 2);
  const names = Array.from({ length: options.members }, (_, i) => `etcd-${i + 1}`);
  const clientUrls = names.map((_, i) => `http://127.0.0.1:${ports[2 * i]}`);
  const peerUrls = names.map((_, i) => `https://127.0.0.1:${ports[2 * i + 1]}`);
  // A CA and peer certificates made by the helper orch's replicas use (bench/store-cluster.ts).
  const pki = await ensureClusterPki(join(options.dataDir, 'pki'), names);
  const initialCluster = names.map((n, i) => `${n}=${peerUrls[i]}`).join(',');
  const children: ChildProcess[] = names.map((name, i) => {
    const dataDir = join(options.dataDir, name);
    mkdirSync(dataDir, { recursive: true });
    return spawn('etcd', [
      '--name', name,
      '--data-dir', dataDir,
      '--listen-client-urls', clientUrls[i] ?? '',
      '--advertise-client-urls', clientUrls[i] ?? '',
      '--listen-peer-urls', peerUrls[i] ?? '',
      '--initial-advertise-peer-urls', peerUrls[i] ?? '',
      '--initial-cluster', initialCluster,
      '--initial-cluster-state', 'new',
      '--initial-cluster-token', 'orch-bench',
      '--peer-client-cert-auth',
      '--peer-trusted-ca-file', join(pki.dir, 'ca.crt'),
      '--peer-cert-file', join(pki.dir, `peer-${name}.crt`),
      '--peer-key-file', join(pki.dir, `peer-${name}.key`),
      '--quota-backend-bytes', String(512 * 1024 * 1024),
      '--logger', 'zap',
      '--log-level', 'error',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
  });
  const stderrTails = children.map(() => '');
  children.forEach((child, i) => child.stderr?.on('data', (chunk: Buffer) => {
    stderrTails[i] = ((stderrTails[i] ?? '') + chunk.toString()).slice(-2000);
  }));
  const removeCleanup = onCleanup(() => children.forEach((c) => killPid(c.pid)));
  const stop = async (): Promise<void> => {
    await Promise.all(children.map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      killPid(child.pid);
    })));
    removeCleanup();
  };
  try {
    await Promise.all(clientUrls.map((url) => waitHttpOk(`${url}/health`, { timeoutMs: options.readyTimeoutMs, accept: (status, text) => status === 200 && text.includes('true') })));
  } catch (error) {
    await stop();
    const tails = stderrTails.map((t, i) => `${names[i]}: ${t.trim().split('\n').slice(-3).join(' | ')}`).join('\n');
    throw new Error(`etcd cluster did not become healthy: ${String(error)}\n${tails}`);
  }
  return { clientUrls, pids: children.map((c) => c.pid ?? -1), stop };
}
