// The watch fan-out floor: starts bench/fanout-floor-server.ts in its own process (as orch's
// replicas are), with a serving certificate from the repository's PKI helpers, and sends it events
// to write to its open watch responses. Killed by pid on stop and whatever way the run ends.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { createCertificateAuthority, issueCertificate } from '../internal/certificates/index.ts';
import { entryPointArgs, repoRoot } from '../internal/cluster/build-layout.ts';
import { killPid, onCleanup } from './cleanup.ts';

/** A running floor server. */
export interface FanOutFloor {
  readonly url: string;
  readonly caPem: string;
  /** Has the server answer, then write `event` to every open watch response; resolves with the answer. */
  send(event: string): Promise<void>;
  stop(): Promise<void>;
}

/** How long the server may take to print its port. */
const startMsMax = 30_000;

/** Starts the server with a fresh certificate under `dataDir`; resolves once it listens. */
export async function startFanOutFloor(dataDir: string): Promise<FanOutFloor> {
  const dir = join(dataDir, 'fanout-floor');
  mkdirSync(dir, { recursive: true });
  const ca = await createCertificateAuthority('bench-fanout-floor-ca');
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], usages: ['server'] });
  const certFile = join(dir, 'server.crt');
  const keyFile = join(dir, 'server.key');
  writeFileSync(certFile, serving.cert);
  writeFileSync(keyFile, serving.key, { mode: 0o600 });
  const child = spawn(process.execPath, [...entryPointArgs('bench/fanout-floor-server.ts'), '--cert', certFile, '--key', keyFile], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const removeCleanup = onCleanup(() => killPid(child.pid));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-2_000); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      killPid(child.pid);
      await exited;
    }
    removeCleanup();
  };
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the fan-out floor server did not listen within ${startMsMax} ms`)), startMsMax);
      child.once('exit', (code, signal) => reject(new Error(`the fan-out floor server exited (${signal ?? code}): ${stderr.trim()}`)));
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
        clearTimeout(timer);
        const value = (JSON.parse(line) as { port?: unknown }).port;
        if (typeof value === 'number') resolve(value);
        else reject(new Error(`the fan-out floor server printed no port: ${line}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `https://127.0.0.1:${port}`;
  const writer = new Pool(url, { connect: { ca: ca.cert }, connections: 1 });
  return {
    url,
    caPem: ca.cert,
    async send(event) {
      const res = await writer.request({ method: 'POST', path: '/event', body: event });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`fan-out floor server: ${res.statusCode}`);
    },
    async stop() {
      await writer.destroy().catch(() => undefined);
      await stop();
    },
  };
}
