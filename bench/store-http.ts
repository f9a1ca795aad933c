// The HTTP face of one store replica of the benchmark: plain HTTP/1.1 (node:http) on loopback,
// like the etcd members' client URLs in bench/etcd-cluster.ts, so that neither side pays TLS on
// the client hop. Bodies are read with the API server's own reader (same 3 MiB limit).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../internal/apiserver/body.ts';
import { requestBodyTimeoutMsDefault } from '../internal/apiserver/limits.ts';
import { StatusError } from '../internal/registry/errors/status-error.ts';
import type { Storage } from '../internal/storage/storage.ts';
import type { TimingSamples } from './server-timings.ts';
import { grpc, handleStoreRequest, type ShimResponse } from './store-shim.ts';

/** How long `close()` lets requests in flight finish before it cuts their connections. */
const closeGraceMs = 1_000;

/** What the server serves and where. */
export interface StoreHttpOptions {
  readonly storage: Storage;
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /** Whether `GET /ready` answers 200 (the replica knows a leader) or 503. */
  readonly isReady: () => boolean;
  /** What `GET /timings` answers: the replica's own measurements since the last call (bench/server-timings.ts). */
  readonly takeTimings: () => TimingSamples;
}

/** A listening server; `close()` stops accepting, then closes every connection within `closeGraceMs`. */
export interface StoreHttpServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Starts serving the shim (bench/store-shim.ts) plus `GET /ready` and `GET /timings`. */
export async function startStoreHttpServer(options: StoreHttpOptions): Promise<StoreHttpServer> {
  const server = createServer((req, res) => void answer(options, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

async function answer(options: StoreHttpOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path === '/ready') return send(res, readiness(req.method ?? '', options.isReady()));
  if (path === '/timings') return send(res, timings(req.method ?? '', options.takeTimings));
  let bodyText: string;
  try {
    bodyText = (await readBody(req, requestBodyTimeoutMsDefault)).toString('utf8');
  } catch (error) {
    if (!(error instanceof StatusError)) return void res.destroy(); // the client went away mid-body
    // The rest of the body is left unread, so this connection cannot carry another request.
    res.setHeader('connection', 'close');
    return send(res, { status: error.code, body: { error: error.message, code: error.code === 408 ? grpc.deadlineExceeded : grpc.resourceExhausted } });
  }
  send(res, await handleStoreRequest(options.storage, { method: req.method ?? '', path, bodyText }));
}

function readiness(method: string, ready: boolean): ShimResponse {
  if (method !== 'GET') return { status: 405, body: { error: `${method} /ready: only GET is supported`, code: grpc.unimplemented } };
  return ready ? { status: 200, body: { ready: true } } : { status: 503, body: { error: 'no leader known yet', code: grpc.unavailable } };
}

function timings(method: string, take: () => TimingSamples): ShimResponse {
  if (method !== 'GET') return { status: 405, body: { error: `${method} /timings: only GET is supported`, code: grpc.unimplemented } };
  return { status: 200, body: take() };
}

function send(res: ServerResponse, response: ShimResponse): void {
  const text = JSON.stringify(response.body);
  res.writeHead(response.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive connections would hold close() open until their client drops them.
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), closeGraceMs);
  await closed;
  clearTimeout(timer);
}
