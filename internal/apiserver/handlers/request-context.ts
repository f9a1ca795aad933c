import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../authn/user-info.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { ServedResource } from '../../registry/resource-registry.ts';
import type { BodySource } from '../body.ts';
import type { ResourceRequestInfo } from '../request-info.ts';
import type { Responder } from '../respond.ts';
import type { NamespaceStores } from '../../registry/core/namespace-deletion.ts';
import type { WriteAdmission } from '../../registry/generic/write-admission.ts';

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
  /** Who asks (after impersonation): written to the store with each write, for the kinds that authorize writes. */
  readonly user: UserInfo;
  /** Authorizes `create` for a PUT or apply that would create the object (kube's create-on-update check); throws the 403. */
  readonly authorizeCreate: () => Promise<void>;
  /** The request's admission (set for writes; reads never run it). */
  readonly admission?: WriteAdmission;
  /** Resolves when the client goes away (watch streams stop then). */
  readonly closed: Promise<void>;
  /** The stores a namespace deletion purges (set for every request; used by namespace deletes). */
  readonly namespaceStores?: NamespaceStores;
}

/**
 * Whether the request is a dry run: `dryRun` given, every value `All`. The caller has validated
 * the options first (checkWriteOptions, checkDeleteOptions): another value here is a bug.
 */
export function dryRunOf(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.some((v) => v !== 'All')) throw new Error(`assert: dryRun ${JSON.stringify(values)} reached a handler unvalidated`);
  return values.length > 0;
}

/** The field manager: `fieldManager`, else the User-Agent's program name, else "unknown". */
export function fieldManagerOf(query: URLSearchParams, headers: IncomingHttpHeaders): string {
  const explicit = query.get('fieldManager');
  // Its length and characters are checked with the other options (checkWriteOptions).
  if (explicit !== null && explicit !== '') return explicit;
  const agent = headers['user-agent'] ?? '';
  const program = agent.split('/')[0]?.trim() ?? '';
  return program === '' ? 'unknown' : program.slice(0, 128);
}

/** How unknown and duplicate fields are treated. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** `fieldValidation` (default Warn), validated with the other options first (checkWriteOptions): another value here is a bug. */
export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw new Error(`assert: fieldValidation ${JSON.stringify(v)} reached a handler unvalidated`);
}
