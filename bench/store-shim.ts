// The store-level benchmark's front of orch's store: the two calls of etcd's v3 JSON gateway that
// bench/etcd-client.ts makes (POST /v3/kv/put, POST /v3/kv/range, base64 keys and values) over
// the `Storage` interface, so that orch's store and etcd are driven by the same client and pay the
// same HTTP+JSON cost. Only what that client sends is supported; anything else is refused out loud.
import { StorageError, type KeyValue, type Storage, type StorageErrorCode } from '../internal/storage/storage.ts';

/** Attempts of one put that keeps losing races with other writers of its key (create, then compare-and-swap). */
const upsertAttemptsMax = 8;

/** gRPC status codes: etcd's gateway puts them in the `code` field of its error bodies. */
export const grpc = { invalidArgument: 3, deadlineExceeded: 4, notFound: 5, resourceExhausted: 8, aborted: 10, unimplemented: 12, internal: 13, unavailable: 14 } as const;

/** One request as the shim sees it: the body is still text (the HTTP layer bounds its size). */
export interface ShimRequest {
  readonly method: string;
  /** The path without its query string. */
  readonly path: string;
  readonly bodyText: string;
}

/** The answer: an HTTP status and a JSON body (etcd's shape on 200, `{ error, code }` otherwise). */
export interface ShimResponse {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A refused request: HTTP status, gRPC code and message, as etcd's gateway reports them. */
class ShimError extends Error {
  constructor(readonly status: number, readonly code: number, message: string) {
    super(message);
  }
}

interface DecodedBody {
  readonly key: string;
  readonly value: Uint8Array;
}

interface Route {
  /** The body fields the route accepts; any other field is refused rather than ignored. */
  readonly fields: readonly string[];
  readonly handle: (storage: Storage, body: DecodedBody) => Promise<Record<string, unknown>>;
}

const routes = new Map<string, Route>([
  ['/v3/kv/put', { fields: ['key', 'value'], handle: put }],
  ['/v3/kv/range', { fields: ['key'], handle: range }],
]);

/** Answers one request. Never throws: bad input is a 4xx, store errors a 503/504, anything else a 500. */
export async function handleStoreRequest(storage: Storage, request: ShimRequest): Promise<ShimResponse> {
  try {
    const route = routes.get(request.path);
    if (route === undefined) throw new ShimError(404, grpc.notFound, `no route ${request.path} (this shim serves ${[...routes.keys()].join(', ')})`);
    if (request.method !== 'POST') throw new ShimError(405, grpc.unimplemented, `${request.method} ${request.path}: only POST is supported`);
    return { status: 200, body: await route.handle(storage, decodeBody(request.bodyText, route.fields)) };
  } catch (error) {
    const refused = asShimError(error);
    return { status: refused.status, body: { error: refused.message, code: refused.code } };
  }
}

/** etcd's put is an upsert: create, or replace whatever value is there. */
async function put(storage: Storage, body: DecodedBody): Promise<Record<string, unknown>> {
  const kv = await upsert(storage, body.key, body.value);
  return { header: { revision: String(kv.modRevision) } };
}

async function upsert(storage: Storage, key: string, value: Uint8Array): Promise<KeyValue> {
  for (let attempt = 1; attempt <= upsertAttemptsMax; attempt++) {
    try {
      return await storage.create(key, value);
    } catch (error) {
      if (!hasCode(error, 'KeyExists')) throw error;
    }
    const current = await storage.get(key, { consistency: 'linearizable' });
    // Gone since the create failed: the next attempt creates it again.
    if (current === null) continue;
    try {
      return await storage.update(key, value, { expectedRevision: current.modRevision });
    } catch (error) {
      if (!hasCode(error, 'Conflict') && !hasCode(error, 'KeyNotFound')) throw error;
    }
  }
  throw new ShimError(409, grpc.aborted, `put: lost ${upsertAttemptsMax} races with other writers of the key`);
}

/** A single-key linearizable range (etcd's default, `serializable: false`). */
async function range(storage: Storage, body: DecodedBody): Promise<Record<string, unknown>> {
  const kv = await storage.get(body.key, { consistency: 'linearizable' });
  // After a linearizable read this replica has applied at least the revision the read saw.
  const header = { revision: String(storage.localRevision()) };
  if (kv === null) return { header, count: '0' };
  const item = { key: base64(kv.key), create_revision: String(kv.createRevision), mod_revision: String(kv.modRevision), value: Buffer.from(kv.value).toString('base64') };
  return { header, kvs: [item], count: '1' };
}

function decodeBody(text: string, fields: readonly string[]): DecodedBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ShimError(400, grpc.invalidArgument, `body is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ShimError(400, grpc.invalidArgument, 'body must be a JSON object');
  const body = parsed as Record<string, unknown>;
  const unsupported = Object.keys(body).filter((f) => !fields.includes(f));
  if (unsupported.length > 0) throw new ShimError(400, grpc.invalidArgument, `unsupported field(s) ${unsupported.join(', ')} (this shim accepts ${fields.join(', ')})`);
  if (body['key'] === undefined) throw new ShimError(400, grpc.invalidArgument, 'key is not provided');
  const keyBytes = decodeBase64(body['key'], 'key');
  if (keyBytes.length === 0) throw new ShimError(400, grpc.invalidArgument, 'key is not provided');
  let key: string;
  try {
    key = new TextDecoder('utf-8', { fatal: true }).decode(keyBytes);
  } catch {
    throw new ShimError(400, grpc.invalidArgument, 'key must be UTF-8 (orch keys are strings)');
  }
  // etcd stores an empty value when a put has none.
  const value = body['value'] === undefined ? new Uint8Array(0) : decodeBase64(body['value'], 'value');
  return { key, value };
}

/** Strict standard base64 (padding optional): Node's decoder alone would skip bad characters silently. */
function decodeBase64(field: unknown, name: string): Uint8Array {
  if (typeof field !== 'string') throw new ShimError(400, grpc.invalidArgument, `${name} must be a base64 string`);
  const bytes = Buffer.from(field, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== field.replace(/=+$/, '')) throw new ShimError(400, grpc.invalidArgument, `${name} is not valid base64`);
  return bytes;
}

function base64(text: string): string {
  return Buffer.from(text).toString('base64');
}

function hasCode(error: unknown, code: StorageErrorCode): boolean {
  return error instanceof StorageError && error.code === code;
}

/** HTTP status and gRPC code of each store error (the store is never asked for revisions or watches here). */
const storageErrors: Record<StorageErrorCode, readonly [number, number]> = {
  Unavailable: [503, grpc.unavailable],
  // 504, never 503: a 503 says "not applied", and this write may have been.
  Indeterminate: [504, grpc.deadlineExceeded],
  ValueTooLarge: [413, grpc.resourceExhausted],
  KeyExists: [409, grpc.aborted],
  Conflict: [409, grpc.aborted],
  KeyNotFound: [404, grpc.notFound],
  Compacted: [500, grpc.internal],
  RevisionTooLarge: [500, grpc.internal],
  WatcherTooSlow: [500, grpc.internal],
};

function asShimError(error: unknown): ShimError {
  if (error instanceof ShimError) return error;
  if (error instanceof StorageError) {
    const [status, code] = storageErrors[error.code];
    return new ShimError(status, code, `${error.code}: ${error.message}`);
  }
  // A bug of the store or of this shim: still an answer, so the benchmark counts it and goes on.
  return new ShimError(500, grpc.internal, `unexpected: ${error instanceof Error ? error.message : String(error)}`);
}
