// The audit.k8s.io/v1 Event (k8s.io/apiserver pkg/apis/audit/v1 types.go) and its JSON, field for
// field in Go's order, empty fields left out as Go's omitempty leaves them. The request and
// response bodies are held as JSON text, encoded once, and spliced in as they are.
import type { UserInfo } from '../authn/user-info.ts';
import type { Level, Stage } from './policy.ts';

/** The object a request is about (audit's ObjectReference). */
export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded part of a metav1.Status that an event keeps. */
export interface ResponseStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

/** One audit event at one stage. Timestamps are milliseconds since the epoch (fractions kept). */
export interface AuditEvent {
  readonly level: Level;
  readonly auditID: string;
  readonly stage: Stage;
  readonly requestURI: string;
  readonly verb: string;
  /** Undefined when authentication failed (`"user":{}`). */
  readonly user: UserInfo | undefined;
  readonly impersonatedUser?: UserInfo;
  readonly sourceIPs: readonly string[];
  readonly userAgent: string;
  readonly objectRef?: Readonly<ObjectReference>;
  readonly responseStatus?: Readonly<ResponseStatus>;
  /** JSON text. */
  readonly requestObject?: string;
  /** JSON text. */
  readonly responseObject?: string;
  readonly requestReceivedMs: number;
  readonly stageMs: number;
  readonly annotations: ReadonlyMap<string, string>;
}

/** `2006-01-02T15:04:05.000000Z` (metav1.MicroTime's JSON), in UTC. */
export function formatMicroTime(ms: number): string {
  // An epoch time in milliseconds holds microseconds only to about half of one: rounded, not cut.
  const totalMicros = Math.round(ms * 1000);
  const whole = Math.floor(totalMicros / 1000);
  const micros = totalMicros % 1_000_000;
  return `${new Date(whole).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}

/** A map's entries by key, as Go's encoding/json writes a map. */
function sortedObject<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** authentication/v1 UserInfo as JSON: every field omitted when empty. */
function userJson(user: UserInfo | undefined): Record<string, unknown> {
  if (user === undefined) return {};
  const extra = Object.entries(user.extra);
  return {
    ...(user.username === '' ? {} : { username: user.username }),
    ...(user.uid === '' ? {} : { uid: user.uid }),
    ...(user.groups.length === 0 ? {} : { groups: user.groups }),
    ...(extra.length === 0 ? {} : { extra: sortedObject(extra) }),
  };
}

function statusJson(status: Readonly<ResponseStatus>): Record<string, unknown> {
  return {
    metadata: {},
    ...(status.status ? { status: status.status } : {}),
    ...(status.message ? { message: status.message } : {}),
    ...(status.reason ? { reason: status.reason } : {}),
    ...(status.details === undefined || status.details === null ? {} : { details: status.details }),
    ...(status.code ? { code: status.code } : {}),
  };
}

function objectRefJson(ref: Readonly<ObjectReference>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const) {
    const value = ref[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

/** The event as one line of JSON (no newline), exactly as kube's JSON encoder writes it. */
export function encodeEvent(ev: AuditEvent): string {
  const head = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: ev.level,
    auditID: ev.auditID,
    stage: ev.stage,
    requestURI: ev.requestURI,
    verb: ev.verb,
    user: userJson(ev.user),
    ...(ev.impersonatedUser === undefined ? {} : { impersonatedUser: userJson(ev.impersonatedUser) }),
    ...(ev.sourceIPs.length === 0 ? {} : { sourceIPs: ev.sourceIPs }),
    ...(ev.userAgent === '' ? {} : { userAgent: ev.userAgent }),
    ...(ev.objectRef === undefined ? {} : { objectRef: objectRefJson(ev.objectRef) }),
    ...(ev.responseStatus === undefined ? {} : { responseStatus: statusJson(ev.responseStatus) }),
  };
  let text = JSON.stringify(head).slice(0, -1);
  if (ev.requestObject !== undefined) text += `,"requestObject":${ev.requestObject}`;
  if (ev.responseObject !== undefined) text += `,"responseObject":${ev.responseObject}`;
  text += `,"requestReceivedTimestamp":"${formatMicroTime(ev.requestReceivedMs)}","stageTimestamp":"${formatMicroTime(ev.stageMs)}"`;
  if (ev.annotations.size > 0) text += `,"annotations":${JSON.stringify(sortedObject(ev.annotations))}`;
  return `${text}}`;
}
