// An audit webhook receiver for tests: HTTPS with its own CA (the authentication tests' PKI) and a
// serving certificate for 127.0.0.1; every EventList POSTed is kept as a batch, with the
// Authorization header it came with; the answers' codes can be scripted (500 to make the sender
// retry). It writes the kubeconfig --audit-webhook-config-file takes.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { makeCa, makeServerCertificate } from '../unit/authn/fixtures/test-pki.ts';

/** One audit event as received (left untyped: the tests assert on it). */
export type ReceivedAuditEvent = Record<string, unknown> & { readonly auditID: string; readonly stage: string };

/** One POST: its EventList items and its Authorization header. */
export interface ReceivedBatch {
  readonly items: readonly ReceivedAuditEvent[];
  readonly authorization: string | undefined;
  readonly kind: string;
  readonly apiVersion: string;
}

/** A running receiver. */
export interface AuditWebhookServer {
  readonly url: string;
  /** The batches answered 2xx, oldest first. */
  readonly batches: readonly ReceivedBatch[];
  /** How many POSTs came, answered or refused. */
  posts(): number;
  /** The codes of the next answers, in order (afterwards 200). */
  answerNext(...codes: number[]): void;
  /** Writes a kubeconfig naming this server, its CA and `token` to `path`. */
  writeKubeconfig(path: string, token: string): void;
  close(): Promise<void>;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startAuditWebhookServer(): Promise<AuditWebhookServer> {
  const ca = await makeCa('test-audit-webhook-ca');
  const serving = await makeServerCertificate(ca);
  const batches: ReceivedBatch[] = [];
  const codes: number[] = [];
  let posts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer({ cert: serving.pem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts++;
      const code = codes.shift() ?? 200;
      if (code >= 200 && code < 300) {
        const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { kind: string; apiVersion: string; items: ReceivedAuditEvent[] };
        batches.push({ items: list.items, authorization: req.headers.authorization, kind: list.kind, apiVersion: list.apiVersion });
      }
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/audit`;
  return {
    url,
    batches,
    posts: () => posts,
    answerNext: (...next) => void codes.push(...next),
    writeKubeconfig(path, token) {
      const caData = Buffer.from(ca.pem).toString('base64');
      writeFileSync(path, [
        'apiVersion: v1', 'kind: Config',
        'clusters:', `- name: audit`, '  cluster:', `    server: ${url}`, `    certificate-authority-data: ${caData}`,
        'users:', '- name: apiserver', '  user:', `    token: ${token}`,
        'contexts:', '- name: audit', '  context: {cluster: audit, user: apiserver}',
        'current-context: audit', '',
      ].join('\n'));
    },
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
