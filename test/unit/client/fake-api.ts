// A tiny in-memory stand-in for orch replicas, for client tests: one shared store with a
// revision counter and history, several HTTP(S) replicas over it, each with fault injection.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** A stored object as the fake keeps it. */
export interface FakeObject {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  [field: string]: unknown;
}

interface HistoryEntry {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: FakeObject;
}

/** The shared state of all fake replicas. */
export class FakeStore {
  rv = 0;
  readonly objects = new Map<string, FakeObject>();
  readonly history: HistoryEntry[] = [];
  /** Watches from a version below this answer 410. */
  compactedRv = 0;
  readonly listeners = new Set<(entry: HistoryEntry) => void>();
  /** While true, writes are not pushed to open watch streams (a watcher that misses events). */
  paused = false;

  write(type: HistoryEntry['type'], object: FakeObject): FakeObject {
    this.rv += 1;
    const stored = { ...object, metadata: { ...object.metadata, resourceVersion: String(this.rv) } };
    if (type === 'DELETED') this.objects.delete(stored.metadata.name);
    else this.objects.set(stored.metadata.name, stored);
    const entry = { rv: this.rv, type, object: stored };
    this.history.push(entry);
    if (!this.paused) for (const listener of this.listeners) listener(entry);
    return stored;
  }
}

/** Faults a replica can be told to inject. */
export interface Faults {
  /** Answer every request (except /readyz unless readyzToo) with this status. */
  status?: number;
  readyzToo?: boolean;
  /** Apply the next N writes, then destroy the socket without answering. */
  dropAfterApply?: number;
  /** Destroy the socket of the next N requests without applying or answering. */
  dropBeforeApply?: number;
  /** Watch streams send ERROR 410 events instead of HTTP 410. */
  goneAsErrorEvent?: boolean;
  /** Split every watch document into pieces of this many bytes. */
  watchChunkBytes?: number;
  /** Send a BOOKMARK with the current rv right after the replay. */
  bookmarkAfterReplay?: boolean;
  /** The version that bookmark carries (default: the store's current one). */
  bookmarkRv?: string;
  /** Watch streams answer 200 and then send nothing (a paused or partitioned replica). */
  silentWatch?: boolean;
  /** Close each watch stream after sending this many events. */
  closeWatchAfterEvents?: number;
}

/** TLS options of a fake replica (node:https server options; `ca` + `requestCert` for client certificates). */
export interface FakeTls {
  readonly key: string;
  readonly cert: string;
  readonly ca?: string;
  readonly requestCert?: boolean;
  readonly rejectUnauthorized?: boolean;
}

/** One fake replica: an HTTP(S) server over the shared store. */
export class FakeReplica {
  faults: Faults = {};
  readonly requests: Array<{ method: string; url: string; authorization?: string; clientCommonName?: string }> = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  url = '';

  constructor(readonly store: FakeStore) {}

  async start(tls?: FakeTls): Promise<void> {
    const handler = (req: IncomingMessage, res: ServerResponse): void => void this.handle(req, res);
    this.server = tls === undefined ? createHttpServer(handler) : createHttpsServer(tls, handler);
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const port = (this.server.address() as AddressInfo).port;
    this.url = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  }

  /** Breaks every open connection (watch streams included). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const peer = (req.socket as { getPeerCertificate?: () => { subject?: { CN?: string } } }).getPeerCertificate?.();
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }), ...(peer?.subject?.CN === undefined ? {} : { clientCommonName: peer.subject.CN }) });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString()) as FakeObject);
    if (url.pathname === '/readyz' && this.faults.readyzToo !== true) return send(res, 200, { ok: true });
    if (this.faults.status !== undefined) return send(res, this.faults.status, status(this.faults.status, 'Injected'));
    if ((this.faults.dropBeforeApply ?? 0) > 0) {
      this.faults.dropBeforeApply = (this.faults.dropBeforeApply ?? 0) - 1;
      req.socket.destroy();
      return;
    }
    if (req.method === 'GET' && url.searchParams.get('watch') === '1') return this.watch(url, req, res);
    if (req.method === 'GET') return this.read(url, res);
    const answer = this.writeOp(req.method ?? '', url, body);
    if (req.method !== 'GET' && (this.faults.dropAfterApply ?? 0) > 0) {
      this.faults.dropAfterApply = (this.faults.dropAfterApply ?? 0) - 1;
      req.socket.destroy();
      return;
    }
    send(res, answer.code, answer.body);
  }

  private read(url: URL, res: ServerResponse): void {
    const parts = url.pathname.split('/').filter((p) => p !== '');
    if (parts.length === 2) {
      const object = this.store.objects.get(parts[1] ?? '');
      return object === undefined ? send(res, 404, status(404, 'NotFound')) : send(res, 200, object);
    }
    const names = [...this.store.objects.keys()].sort();
    const token = url.searchParams.get('continue');
    const limit = Number(url.searchParams.get('limit') ?? '0');
    const start = token === null ? 0 : Number(token);
    const page = limit > 0 ? names.slice(start, start + limit) : names.slice(start);
    const next = limit > 0 && start + limit < names.length ? String(start + limit) : undefined;
    send(res, 200, { kind: 'List', metadata: { resourceVersion: String(this.store.rv), ...(next === undefined ? {} : { continue: next }) }, items: page.map((n) => this.store.objects.get(n)) });
  }

  private writeOp(method: string, url: URL, body: FakeObject | undefined): { code: number; body: unknown } {
    const name = url.pathname.split('/').filter((p) => p !== '')[1];
    if (method === 'POST' && body !== undefined) {
      if (this.store.objects.has(body.metadata.name)) return { code: 409, body: status(409, 'AlreadyExists') };
      return { code: 201, body: this.store.write('ADDED', body) };
    }
    const current = this.store.objects.get(name ?? '');
    if (current === undefined) return { code: 404, body: status(404, 'NotFound') };
    if (method === 'PUT' && body !== undefined) {
      const expected = body.metadata.resourceVersion;
      if (expected !== undefined && expected !== current.metadata.resourceVersion) return { code: 409, body: status(409, 'Conflict') };
      return { code: 200, body: this.store.write('MODIFIED', body) };
    }
    if (method === 'DELETE') return { code: 200, body: this.store.write('DELETED', current) };
    return { code: 405, body: status(405, 'MethodNotAllowed') };
  }

  private watch(url: URL, req: IncomingMessage, res: ServerResponse): void {
    const from = Number(url.searchParams.get('resourceVersion') ?? '0');
    if (from < this.store.compactedRv && this.faults.goneAsErrorEvent !== true) return send(res, 410, status(410, 'Expired'));
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    // A real server answers a watch at once, even before its first event.
    res.flushHeaders();
    if (this.faults.silentWatch === true) return;
    const lifetimeSeconds = Number(url.searchParams.get('timeoutSeconds') ?? '0');
    if (lifetimeSeconds > 0) {
      const timer = setTimeout(() => res.end(), lifetimeSeconds * 1000);
      res.on('close', () => clearTimeout(timer));
    }
    if (from < this.store.compactedRv) {
      res.end(JSON.stringify({ type: 'ERROR', object: status(410, 'Expired') }) + '\n');
      return;
    }
    let sent = 0;
    const emit = (entry: { type: string; object: unknown }): void => {
      const text = JSON.stringify(entry) + '\n';
      const size = this.faults.watchChunkBytes ?? text.length;
      for (let i = 0; i < text.length; i += size) res.write(text.slice(i, i + size));
      sent += 1;
      if (this.faults.closeWatchAfterEvents !== undefined && sent >= this.faults.closeWatchAfterEvents) res.end();
    };
    for (const entry of this.store.history) if (entry.rv > from && !res.writableEnded) emit(entry);
    if (this.faults.bookmarkAfterReplay === true && !res.writableEnded) emit({ type: 'BOOKMARK', object: { metadata: { resourceVersion: this.faults.bookmarkRv ?? String(this.store.rv) } } });
    if (res.writableEnded) return;
    const listener = (entry: HistoryEntry): void => {
      if (!res.writableEnded) emit(entry);
    };
    this.store.listeners.add(listener);
    const remove = (): void => void this.store.listeners.delete(listener);
    req.socket.on('close', remove);
    res.on('finish', remove);
  }
}

function status(code: number, reason: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message: `${reason} (${code})` };
}

function send(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Starts `count` replicas over one fresh store. */
export async function startFakeCluster(count: number, tls?: FakeTls): Promise<{ store: FakeStore; replicas: FakeReplica[]; stop(): Promise<void> }> {
  const store = new FakeStore();
  const replicas = Array.from({ length: count }, () => new FakeReplica(store));
  for (const replica of replicas) await replica.start(tls);
  return { store, replicas, stop: async () => void (await Promise.all(replicas.map((r) => r.stop()))) };
}

/** A test clock: real time, seeded-free randomness fixed at 0.5, sleeps capped to keep tests fast. */
export const fastClock = {
  now: () => Date.now(),
  random: () => 0.5,
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 5))),
};
