// The request filters after authentication, in kube-apiserver's order (DefaultBuildHandlerChain):
// authentication (authentication.ts, run first by the request handler, which has the TLS socket)
// -> audit -> impersonation -> flow control (flow-control.ts) -> authorization. Audit runs before impersonation, as in kube: the
// policy judges the caller, the event names the impersonated user beside it, and the decision of
// the authorizer is annotated on it. What the filters learn, the user the request goes on as, is
// handed to the handlers; the handler then calls admission and the registry.
import type { Cancellation } from '../../flowcontrol/cancellation.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../authn/user-info.ts';
import type { Authorizer, Decision } from '../../authz/authorizer.ts';
import { PlainInternalError } from '../../authz/request-outcome.ts';
import { auditAttributes } from '../../audit/audit-attributes.ts';
import type { AuditAttributes } from '../../audit/policy-checker.ts';
import type { RequestInfo } from '../request-info.ts';
import { authenticatedUser } from './authentication.ts';
import { attributesFromRequest } from '../../authz/request-attributes.ts';
import { authorizationFilter } from './authorization.ts';
import { flowControlFilter, type RequestFlowControl } from './flow-control.ts';
import { impersonationFilter, type ImpersonationSource } from './impersonation.ts';

/** What the filters need from the server. */
export interface FilterDeps {
  readonly authorizer: Authorizer;
  /** API Priority and Fairness or the in-flight limits; none: every request goes on. */
  readonly flowControl?: RequestFlowControl;
}

/** The request as the filters see it. */
export interface FilteredRequest extends ImpersonationSource {
  readonly headers: IncomingHttpHeaders;
  readonly method: string;
  readonly query: URLSearchParams;
  /** The parsed request; null for a method a resource path does not take (routing answers 405 after the filters). */
  readonly info: RequestInfo | null;
  /** The URL path (the audit judges a request without `info` by it). */
  readonly path: string;
  /** The request's audit, when audit is on. */
  readonly audit?: FilterAudit;
  /** Sets a response header (flow control's classification). */
  readonly setHeader?: (name: string, value: string) => void;
  /** Aborts when the client leaves (a request queued by flow control is dropped). */
  readonly signal?: Cancellation;
}

/** Who the request goes on as, and what to call once it has been served (flow control's seat). */
export interface Filtered {
  readonly user: UserInfo;
  readonly release: () => void;
}

/** What the filters tell the request's audit (internal/audit's RequestAudit). */
export interface FilterAudit {
  /** The caller is known; false when its first event could not be stored (the request is refused). */
  begin(attributes: AuditAttributes): boolean;
  impersonated(user: UserInfo): void;
  authorized(decision: Decision): void;
}

/**
 * Runs the filters; returns the user the request goes on as and the release of its flow-control
 * seat, or throws the 403, the plain 500 or the 429 (TooManyRequestsError) to answer.
 */
export async function runRequestFilters(deps: FilterDeps, req: FilteredRequest): Promise<Filtered> {
  const caller = authenticatedUser(req.headers);
  const { audit } = req;
  // kube's WithAudit refuses the request as a plain 500 when its first event cannot be stored.
  if (audit !== undefined && !audit.begin(auditAttributes(caller, req))) throw new PlainInternalError('failed to store audit event');
  const user = await impersonationFilter(deps.authorizer, caller, req);
  if (user !== caller) audit?.impersonated(user);
  if (req.info === null) return { user, release: () => undefined };
  const request = { user, method: req.method, info: req.info, query: req.query };
  const release = deps.flowControl === undefined
    ? () => undefined
    : await flowControlFilter(deps.flowControl, { attributes: attributesFromRequest(request), query: req.query, setHeader: req.setHeader ?? (() => undefined), ...(req.signal ? { signal: req.signal } : {}) });
  try {
    await authorizationFilter(deps.authorizer, request, audit);
  } catch (err) {
    release();
    throw err;
  }
  return { user, release };
}
