// HTTPS stand-ins for orch replicas in orchctl's unit tests: each stub answers with a handler the
// test gives, behind a CA the test's kubeconfig trusts, and records what it was asked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from '../../../internal/certificates/pki.ts';
import type { CtlIo } from '../../../internal/ctl/command.ts';

/** One request a stub received. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** Answers one request; `body` is the request body already read. */
export type StubHandler = (req: Received, res: ServerResponse) => void;

/** A stub replica. */
export interface StubReplica {
  readonly url: string;
  readonly received: Received[];
  handler: StubHandler;
}

/** Stubs, their kubeconfig (one cluster per stub, token user) and a temporary directory. */
export interface StubCluster {
  readonly replicas: readonly StubReplica[];
  readonly kubeconfigPath: string;
  readonly dir: string;
  /** A URL on which nothing listens (a dead replica). */
  readonly deadUrl: string;
  close(): Promise<void>;
}

/** The token the stubs' kubeconfig user presents. */
export const stubToken = 'stub-admin-token';

/** Sends a JSON answer. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** A Kubernetes Status error answer. */
export function sendStatus(res: ServerResponse, code: number, reason: string, message: string): void {
  sendJson(res, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Starts `count` stubs (all answering 404 until given a handler) and writes their kubeconfig (user: a token unless `user` is given). */
export async function startStubCluster(count: number, options: { deadInKubeconfig?: 'first' | 'last'; user?: Record<string, unknown> } = {}): Promise<StubCluster> {
  const ca = await createCertificateAuthority('orchctl-test-ca');
  const serving = await issueCertificate(ca, { commonName: 'stub', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usages: ['server'] });
  const servers: Server[] = [];
  const replicas: StubReplica[] = [];
  for (let i = 0; i < count; i += 1) {
    const replica: StubReplica = { url: '', received: [], handler: (_req, res) => sendStatus(res, 404, 'NotFound', 'not found') };
    const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        replica.received.push(received);
        replica.handler(received, res);
      });
    });
    const port = await listen(server);
    servers.push(server);
    replicas.push(Object.assign(replica, { url: `https://127.0.0.1:${port}` }));
  }
  // A port that was free a moment ago: closed again, nothing listens on it.
  const probe = createServer();
  const deadPort = await listen(probe);
  await new Promise((r) => probe.close(r));
  const deadUrl = `https://127.0.0.1:${deadPort}`;
  const dir = mkdtempSync(join(tmpdir(), 'orchctl-test-'));
  const caData = Buffer.from(ca.cert).toString('base64');
  const live = replicas.map((r) => r.url);
  const urls = options.deadInKubeconfig === 'first' ? [deadUrl, ...live] : options.deadInKubeconfig === 'last' ? [...live, deadUrl] : live;
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: urls.map((server, i) => ({ name: `orch-${i + 1}`, cluster: { server, 'certificate-authority-data': caData } })),
    users: [{ name: 'admin', user: options.user ?? { token: stubToken } }],
    contexts: urls.map((_u, i) => ({ name: `orch-${i + 1}`, context: { cluster: `orch-${i + 1}`, user: 'admin' } })),
    'current-context': 'orch-1',
  };
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, JSON.stringify(kubeconfig));
  return {
    replicas,
    kubeconfigPath,
    dir,
    deadUrl,
    async close() {
      const closed = Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      for (const s of servers) s.closeAllConnections();
      await closed;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An io that records what a command prints. */
export function recordingIo(cwd: string, env: NodeJS.ProcessEnv = {}): CtlIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    env,
    cwd,
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}
