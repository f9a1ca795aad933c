// What the authorization filter answers, as kube-apiserver 1.28's WithAuthorization and
// WithImpersonation do: allowed requests go on; a refusal is the 403 Status; a refusal where an
// authorizer failed (a webhook down) is a plain-text 500 (responsewriters.InternalError), not a Status.
import { internalError, type StatusError } from '../registry/errors/status-error.ts';
import type { Attributes, Authorizer, Decision } from './authorizer.ts';
import { forbiddenError, newForbidden } from './forbidden.ts';
import { goQuote } from './go-format.ts';

/** A failure kube answers as a plain-text 500 (`text/plain; charset=utf-8`), body from `internalErrorText`. */
export class PlainInternalError extends Error {
  readonly code = 500;
  constructor(message: string) {
    super(message);
    this.name = 'PlainInternalError';
  }
}

/** The body of that 500, as Go's http.Error writes kube's message (with its trailing newline). */
export function internalErrorText(requestUri: string, error: Error): string {
  const text = `Internal Server Error: ${goQuote(requestUri)}: ${error.message}`;
  return `${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n`;
}

/** The outcome of a decision: null to go on, the 403 StatusError, or the plain 500 when an authorizer failed. */
export function decisionOutcome(attributes: Attributes, decision: Decision): StatusError | PlainInternalError | null {
  if (decision.decision === 'allow') return null;
  if (decision.error !== undefined) return new PlainInternalError(decision.error.message);
  return forbiddenError(attributes, decision.reason);
}

/** Authorizes a request: null when it may go on, else the failure to answer with. */
export async function authorizeRequest(authorizer: Authorizer, attributes: Attributes): Promise<StatusError | PlainInternalError | null> {
  return decisionOutcome(attributes, await authorizer.authorize(attributes));
}

/**
 * The `create` check of an update or patch that creates the object (PUT with create-on-update, an
 * apply of an object that does not exist), as kube's withAuthorization in handlers/rest.go: null to
 * go on, else the 403 `<resource> "<name>" is forbidden: <reason>` or, when an authorizer failed,
 * a 500 Status. `attributes` are the request's with the verb `create`.
 */
export async function authorizeCreateOnUpdate(authorizer: Authorizer, attributes: Attributes): Promise<StatusError | null> {
  const decision = await authorizer.authorize(attributes);
  if (decision.decision === 'allow') return null;
  if (decision.error !== undefined) return internalError(decision.error.message);
  return newForbidden({ group: attributes.apiGroup, resource: attributes.resource, name: attributes.name }, decision.reason);
}
