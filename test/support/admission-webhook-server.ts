// An admission webhook server for end-to-end tests: HTTPS with its own CA and a serving
// certificate for 127.0.0.1, one handler per path, and every AdmissionReview it receives recorded,
// so a test can say what the API server sent and how often. A handler may also never answer.
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { makeCa, makeServerCertificate } from '../unit/authn/fixtures/test-pki.ts';

/** An AdmissionReview as received (its request left untyped: the tests assert on it). */
export interface ReceivedReview {
  readonly apiVersion: string;
  readonly kind: string;
  readonly request: Record<string, unknown> & { readonly uid: string };
}

/** What a handler answers besides uid: allowed, status, patch (a JSON Patch as operations), warnings. */
export interface ReviewAnswer {
  readonly allowed: boolean;
  readonly status?: { readonly code?: number; readonly message?: string; readonly reason?: string };
  readonly patch?: readonly unknown[];
  readonly warnings?: readonly string[];
  /** Answered instead of the request's uid (to send a wrong one). */
  readonly uid?: string;
}

/** Answers one review, or 'never' to hold the connection open without a response. */
export type ReviewHandler = (review: ReceivedReview) => ReviewAnswer | 'never';

/** A running webhook server. */
export interface AdmissionWebhookServer {
  /** The base64 PEM of the server's CA, for clientConfig.caBundle. */
  readonly caBundle: string;
  /** `https://127.0.0.1:<port>/<path>`. */
  url(path: string): string;
  /** Sets the handler of `path` (default: allow everything). */
  handle(path: string, handler: ReviewHandler): void;
  /** The reviews received on `path`, oldest first. */
  received(path: string): readonly ReceivedReview[];
  /** Closes the server and every open connection (held ones too). */
  close(): Promise<void>;
}

function answerBody(review: ReceivedReview, answer: ReviewAnswer): unknown {
  const response: Record<string, unknown> = { uid: answer.uid ?? review.request.uid, allowed: answer.allowed };
  if (answer.status !== undefined) response.status = answer.status;
  if (answer.patch !== undefined) {
    response.patch = Buffer.from(JSON.stringify(answer.patch)).toString('base64');
    response.patchType = 'JSONPatch';
  }
  if (answer.warnings !== undefined) response.warnings = answer.warnings;
  return { apiVersion: review.apiVersion, kind: 'AdmissionReview', response };
}

/** Starts a server on a free port of 127.0.0.1. */
export async function startAdmissionWebhookServer(): Promise<AdmissionWebhookServer> {
  const ca = await makeCa('test-admission-webhook-ca');
  const serving = await makeServerCertificate(ca);
  const handlers = new Map<string, ReviewHandler>();
  const reviews = new Map<string, ReceivedReview[]>();
  const sockets = new Set<Socket>();
  const server: Server = createServer({ cert: serving.pem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedReview;
      reviews.set(path, [...(reviews.get(path) ?? []), review]);
      const answer = (handlers.get(path) ?? (() => ({ allowed: true })))(review);
      if (answer === 'never') return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answerBody(review, answer)));
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    caBundle: Buffer.from(ca.pem).toString('base64'),
    url: (path) => `https://127.0.0.1:${port}${path}`,
    handle: (path, handler) => void handlers.set(path, handler),
    received: (path) => reviews.get(path) ?? [],
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
