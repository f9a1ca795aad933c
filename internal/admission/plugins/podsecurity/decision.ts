// What one evaluation decides (kube's AdmissionResponse as pod-security-admission fills it): allow
// or refuse, warnings for the client, and audit annotations (keys without the plugin's prefix).
import type { StatusError } from '../../../registry/errors/status-error.ts';

/** The outcome of a PodSecurity evaluation of one request. */
export interface Decision {
  /** The refusal; undefined when the request is allowed. */
  readonly refusal?: StatusError;
  readonly warnings: readonly string[];
  /** Audit annotations by key (`enforce-policy`, `audit-violations`, `exempt`, `error`). */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** Allowed, with nothing to say. */
export const allowedDecision: Decision = { warnings: [], auditAnnotations: {} };

/** Allowed without evaluation because every mode is privileged (kube notes privileged:latest). */
export const privilegedDecision: Decision = { warnings: [], auditAnnotations: { 'enforce-policy': 'privileged:latest' } };

/** Allowed because something is exempt: the audit event says what (`user`, `namespace`, `runtimeClass`). */
export function exemptDecision(reason: 'user' | 'namespace' | 'runtimeClass'): Decision {
  return { warnings: [], auditAnnotations: { exempt: reason } };
}

/** Allowed with warnings for the client. */
export function warningsDecision(warnings: readonly string[]): Decision {
  return { warnings, auditAnnotations: {} };
}

/** Refused because the request could not be handled; the audit event gets the error's text. */
export function errorDecision(refusal: StatusError, cause?: string): Decision {
  const text = cause === undefined ? refusal.message : `${refusal.message}: ${cause}`;
  return { refusal, warnings: [], auditAnnotations: { error: text } };
}
