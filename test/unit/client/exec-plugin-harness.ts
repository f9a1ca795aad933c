// Test harness for the exec credential plugin: an HTTPS server that accepts only the bearer
// tokens and client-certificate users it is told to, and a plugin script in a temp dir whose
// answer the test sets and whose runs it can count and inspect.
import 'reflect-metadata';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../../internal/certificates/pki.ts';

/** What the server saw of one request. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly token?: string;
  readonly user?: string;
}

/** An HTTPS API stand-in that authenticates by bearer token or client certificate. */
export class AuthServer {
  readonly validTokens = new Set<string>();
  readonly validUsers = new Set<string>();
  readonly seen: SeenRequest[] = [];
  /** Common name presented at each TLS handshake ('-' for none). */
  readonly handshakes: string[] = [];
  url = '';
  private server: Server | undefined;

  constructor(readonly ca: CertificateAndKey) {}

  async start(): Promise<void> {
    const serving = await issueCertificate(this.ca, { commonName: 'api', ipAddresses: ['127.0.0.1'], usages: ['server'] });
    this.server = createServer({ key: serving.key, cert: serving.cert, ca: this.ca.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      const user = socket.authorized ? (socket.getPeerCertificate().subject?.CN as string | undefined) : undefined;
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ') === true ? auth.slice('Bearer '.length) : undefined;
      this.seen.push({ method: req.method ?? '', path: req.url ?? '', ...(token === undefined ? {} : { token }), ...(user === undefined ? {} : { user }) });
      req.resume();
      const ok = (token !== undefined && this.validTokens.has(token)) || (user !== undefined && this.validUsers.has(user));
      if (!ok) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 }));
        return;
      }
      const object = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'one', resourceVersion: '7' } };
      if (req.url?.includes('watch=1') === true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'ADDED', object }) + '\n');
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(object));
    });
    this.server.on('secureConnection', (socket: TLSSocket) => {
      this.handshakes.push((socket.getPeerCertificate().subject?.CN as string | undefined) ?? '-');
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.validTokens.clear();
    this.validUsers.clear();
    this.seen.length = 0;
    this.handshakes.length = 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }
}

/** What the plugin script does on its next runs. */
export interface PluginBehaviour {
  /** Printed as JSON on stdout. */
  readonly answer?: unknown;
  /** Printed as is instead of `answer`. */
  readonly raw?: string;
  readonly stderr?: string;
  readonly exitCode?: number;
  readonly delayMs?: number;
}

/** One recorded plugin run. */
export interface PluginRun {
  readonly info: Record<string, unknown> | null;
  /** The arguments joined by spaces. */
  readonly args: string;
  /** ORCH_TEST_VAR as the plugin saw it ('' when unset). */
  readonly testVar: string;
}

// A POSIX sh script (a node script costs a second per run on a busy two-core machine). It reads
// its behaviour from files beside it and appends one JSON line per run to runs.log;
// KUBERNETES_EXEC_INFO is one line of JSON, so it is embedded as is.
const pluginSource = `#!/bin/sh
dir=$(dirname "$0")
printf '{"info":%s,"args":"%s","testVar":"%s"}\\n' "\${KUBERNETES_EXEC_INFO:-null}" "$*" "\${ORCH_TEST_VAR:-}" >> "$dir/runs.log"
delay=$(cat "$dir/delay")
if [ "$delay" != 0 ]; then sleep "$delay"; fi
cat "$dir/stderr" >&2
cat "$dir/stdout"
exit "$(cat "$dir/exitcode")"
`;

/** A temp dir holding a kubeconfig and, in plugins/, the plugin script. */
export class PluginDir {
  readonly dir = mkdtempSync(join(tmpdir(), 'orch-exec-'));
  readonly pluginDir = join(this.dir, 'plugins');
  /** Path of the script relative to `dir` (as a kubeconfig would name it). */
  readonly relativeCommand = './plugins/credential-plugin';

  constructor() {
    mkdirSync(this.pluginDir);
    const script = join(this.pluginDir, 'credential-plugin');
    writeFileSync(script, pluginSource);
    chmodSync(script, 0o755);
    this.behave({ answer: {} });
  }

  behave(behaviour: PluginBehaviour): void {
    const stdout = behaviour.raw ?? (behaviour.answer === undefined ? '' : JSON.stringify(behaviour.answer));
    writeFileSync(join(this.pluginDir, 'stdout'), stdout);
    writeFileSync(join(this.pluginDir, 'stderr'), behaviour.stderr ?? '');
    writeFileSync(join(this.pluginDir, 'exitcode'), String(behaviour.exitCode ?? 0));
    writeFileSync(join(this.pluginDir, 'delay'), String((behaviour.delayMs ?? 0) / 1000));
  }

  runs(): PluginRun[] {
    const log = join(this.pluginDir, 'runs.log');
    if (!existsSync(log)) return [];
    return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as PluginRun);
  }

  /** Writes a kubeconfig for `server` whose user runs `exec`; returns its path. */
  writeKubeconfig(server: AuthServer, exec: Record<string, unknown>, clusterExtra: Record<string, unknown> = {}): string {
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority-data': Buffer.from(server.ca.cert).toString('base64'), ...clusterExtra } }],
      users: [{ name: 'u', user: { exec } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'ctx',
    };
    const path = join(this.dir, 'kubeconfig');
    writeFileSync(path, JSON.stringify(config));
    return path;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A fresh CA and an AuthServer started under it. */
export async function startAuthServer(): Promise<AuthServer> {
  const server = new AuthServer(await createCertificateAuthority('exec-test-ca'));
  await server.start();
  return server;
}

/** A client certificate for `user` under the server's CA. */
export function clientCertificate(server: AuthServer, user: string): Promise<CertificateAndKey> {
  return issueCertificate(server.ca, { commonName: user, usages: ['client'] });
}
