import type { IncomingHttpHeaders } from 'node:http';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { ServedResource } from '../../registry/resource-registry.ts';
import type { BodySource } from '../body.ts';
import type { ResourceRequestInfo } from '../request-info.ts';
import type { Responder } from '../respond.ts';
import { badRequest } from '../../registry/errors/status-error.ts';
import type { NamespaceStores } from '../../registry/core/namespace-deletion.ts';

/** Everything a resource handler needs about one request. */
export interface RequestContext {
  readonly info: ResourceRequestInfo;
  readonly served: ServedResource;
  readonly store: GenericStore;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: BodySource;
  /** How long the body may take to arrive whole (readBody answers 408 after it). */
  readonly bodyTimeoutMs: number;
  /** How long a watch's client may take no data while events wait before it is dropped. */
  readonly watchStallTimeoutMs: number;
  readonly out: Responder;
  readonly apiDomain: string;
  /** Resolves when the client goes away (watch streams stop then). */
  readonly closed: Promise<void>;
  /** The stores a namespace deletion purges (set for every request; used by namespace deletes). */
  readonly namespaceStores?: NamespaceStores;
}

/** `dryRun`: absent -> false; present empty or `All` -> true; anything else 400. */
export function dryRunOf(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const v of values) if (v !== '' && v !== 'All') throw badRequest(`Invalid dry run value "${v}": supported values: "All"`);
  return true;
}

/** The field manager: `fieldManager`, else the User-Agent's program name, else "unknown". */
export function fieldManagerOf(query: URLSearchParams, headers: IncomingHttpHeaders): string {
  const explicit = query.get('fieldManager');
  if (explicit !== null && explicit !== '') {
    if (explicit.length > 128) throw badRequest('fieldManager: Too long: may not be more than 128 bytes');
    return explicit;
  }
  const agent = headers['user-agent'] ?? '';
  const program = agent.split('/')[0]?.trim() ?? '';
  return program === '' ? 'unknown' : program.slice(0, 128);
}

/** How unknown and duplicate fields are treated. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** `fieldValidation` (default Warn); 400 for other values. */
export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw badRequest(`fieldValidation: Unsupported value: "${v}": supported values: "Ignore", "Warn", "Strict"`);
}

/** A non-negative integer query parameter, or undefined; 400 when malformed. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^\d+$/.test(v)) throw badRequest(`${name}: Invalid value: "${v}": must be a non-negative integer`);
  return Number(v);
}
