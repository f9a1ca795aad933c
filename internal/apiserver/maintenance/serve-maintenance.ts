/**
 * The maintenance API's routes under `/orch/v1/` (docs/operations.md). The request was
 * authenticated, audited and authorized as any non-resource request before it gets here (RBAC
 * `nonResourceURLs`, the verb the lowercased method); these handlers only do HTTP: decode the
 * body, refuse a follower a leader-only call before anything changes, call the backend, answer.
 */
import type { BodySource } from '../body.ts';
import { methodNotAllowed, pathNotFound } from '../handlers/route-errors.ts';
import type { Responder } from '../respond.ts';
import type { MaintenanceBackend } from './backend.ts';
import { notLeader, statusOfRefusal } from './errors.ts';
import { parseAddMember, parseTransferLeader, readJsonObject } from './request-body.ts';
import { serveSnapshot } from './snapshot-download.ts';

/** The path prefix of the maintenance API. */
export const maintenancePathPrefix = '/orch/';

/** One maintenance request as the router sees it. */
export interface MaintenanceRequest {
  readonly method: string;
  /** The URL path, `/orch/v1/...`. */
  readonly path: string;
  /** The request, to read a body from. */
  readonly body: BodySource;
  readonly out: Responder;
  readonly bodyTimeoutMs: number;
  readonly log: (message: string, err?: unknown) => void;
  /** A snapshot download whose client takes nothing for this long is cut (default snapshotStallTimeoutMsDefault). */
  readonly snapshotStallTimeoutMs?: number;
}

/** Throws the 503 unless this replica leads: a leader-only call changes nothing on a follower. */
function requireLeader(backend: MaintenanceBackend): void {
  const { self, leader } = backend.leadership();
  if (leader !== self) throw notLeader(self, leader);
}

/** A member's name from the path (404 for one that cannot be decoded: no member has it). */
function memberName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw pathNotFound();
  }
}

/** Runs a backend call, its refusals turned into Status errors. */
async function call<T>(backend: MaintenanceBackend, work: () => Promise<T>, name?: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw statusOfRefusal(err, { self: backend.leadership().self, ...(name === undefined ? {} : { name }) });
  }
}

async function serveMembers(backend: MaintenanceBackend, req: MaintenanceRequest, rest: readonly string[]): Promise<void> {
  const { method, out } = req;
  if (rest.length === 0) {
    if (method === 'GET' || method === 'HEAD') return out.send(200, backend.members());
    if (method !== 'POST') throw methodNotAllowed();
    const body = parseAddMember(await readJsonObject(req.body, req.bodyTimeoutMs));
    requireLeader(backend);
    return out.send(201, await call(backend, () => backend.addMember(body), body.name));
  }
  const name = memberName(rest[0] ?? '');
  if (rest.length === 1) {
    if (method !== 'DELETE') throw methodNotAllowed();
    requireLeader(backend);
    await call(backend, () => backend.removeMember(name), name);
    return out.send(200, { removed: name });
  }
  if (rest.length !== 2 || rest[1] !== 'promote') throw pathNotFound();
  if (method !== 'POST') throw methodNotAllowed();
  requireLeader(backend);
  return out.send(200, await call(backend, () => backend.promoteMember(name), name));
}

/** Serves one request under `/orch/`: 404 for a path it does not have, 405 for a method a path does not take. */
export async function serveMaintenance(backend: MaintenanceBackend, req: MaintenanceRequest): Promise<void> {
  const { method, out } = req;
  // JSON whatever `Accept` says: these are no Kubernetes objects, and orchctl reads JSON.
  out.options.format = 'json';
  out.options.protobuf = undefined;
  const [prefix, version, resource, ...rest] = req.path.split('/').filter((p) => p !== '');
  if (prefix !== 'orch' || version !== 'v1') throw pathNotFound();
  if (resource === 'members') return serveMembers(backend, req, rest);
  if (rest.length > 0) throw pathNotFound();
  switch (resource) {
    case 'status':
      if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed();
      return out.send(200, await backend.status());
    case 'leader': {
      if (method !== 'POST') throw methodNotAllowed();
      const { target } = parseTransferLeader(await readJsonObject(req.body, req.bodyTimeoutMs));
      requireLeader(backend);
      await call(backend, () => backend.transferLeadership(target), target);
      return out.send(200, { leader: target });
    }
    case 'snapshot':
      if (method !== 'GET') throw methodNotAllowed();
      return call(backend, () => serveSnapshot(backend, out, req.log, req.snapshotStallTimeoutMs === undefined ? {} : { stallTimeoutMs: req.snapshotStallTimeoutMs }));
    default:
      throw pathNotFound();
  }
}
