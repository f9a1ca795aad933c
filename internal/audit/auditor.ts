// The API server's audit: its policy, backends and counters, and each request's RequestAudit,
// found again by the request's headers object (as the authenticated user is) by the handlers that
// decode bodies and by admission.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AuditMetrics } from './metrics.ts';
import type { Policy } from './policy.ts';
import { RequestAudit, type AuditCore, type AuditedRequest } from './request-audit.ts';
import type { AuditSink } from './sink.ts';

/** Auditing as configured: a policy and at least one backend. */
export class Auditor implements AuditCore {
  constructor(
    readonly policy: Policy,
    readonly sink: AuditSink,
    readonly metrics: AuditMetrics,
  ) {}

  /** Sends or writes what is pending and closes the backends. */
  shutdown(): Promise<void> {
    return this.sink.shutdown();
  }
}

/** The audit of each request in flight, by its headers object (one per request, never reused). */
const auditsByHeaders = new WeakMap<IncomingHttpHeaders, RequestAudit>();

/** The `Audit-ID` header: kube takes the client's as it is and makes one otherwise. */
function auditIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['audit-id'];
  const value = Array.isArray(given) ? given[0] : given;
  return value !== undefined && value !== '' ? value : randomUUID();
}

/** The part of a Node request the audit reads. */
export interface AuditSource {
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
  /** The connection (HTTP/2: the session's socket): its peer address and client certificate. */
  readonly socket?: unknown;
}

function auditedRequest(source: AuditSource): AuditedRequest {
  const socket = (source.socket ?? undefined) as { remoteAddress?: string; getPeerCertificate?: () => object } | undefined;
  return {
    url: source.url ?? '/',
    headers: source.headers,
    remoteAddress: socket?.remoteAddress,
    peerCertificatePresented: () => Object.keys(socket?.getPeerCertificate?.() ?? {}).length > 0,
  };
}

/**
 * Starts a request's audit (kube's WithAuditInit): answers its `Audit-Id` whether or not audit is
 * on, and returns the RequestAudit when `auditor` is set.
 */
export function startRequestAudit(auditor: Auditor | undefined, source: AuditSource, res: { setHeader(name: string, value: string): unknown }): RequestAudit | undefined {
  const auditId = auditIdOf(source.headers);
  try {
    res.setHeader('Audit-Id', auditId);
  } catch {
    // A client's id that a response header cannot carry is not echoed.
  }
  if (auditor === undefined) return undefined;
  const audit = new RequestAudit(auditor, auditedRequest(source), auditId);
  auditsByHeaders.set(source.headers, audit);
  return audit;
}

/** Records a decoded request body (create, update, a sub-resource's body, DeleteOptions) on the request's audit, if any. */
export function auditRequestObject(headers: IncomingHttpHeaders, obj: unknown): void {
  auditsByHeaders.get(headers)?.logRequestObject(obj);
}

/** Records a patch (as decoded from JSON, or an applied configuration) on the request's audit, if any. */
export function auditRequestPatch(headers: IncomingHttpHeaders, patch: unknown): void {
  auditsByHeaders.get(headers)?.logRequestPatch(patch);
}

/** Where admission puts its audit annotations for this request (a fresh map when it is not audited). */
export function admissionAnnotationsOf(headers: IncomingHttpHeaders): Map<string, string> {
  return auditsByHeaders.get(headers)?.admissionAnnotations ?? new Map();
}
