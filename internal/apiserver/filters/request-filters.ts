// The request filters after authentication, in kube-apiserver's order (DefaultBuildHandlerChain):
// authentication (authentication.ts, run first by the request handler, which has the TLS socket)
// -> impersonation -> (audit: none yet) -> authorization. What they learn, the user the request
// goes on as, is handed to the handlers; the handler then calls admission and the registry.
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../authn/user-info.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import type { RequestInfo } from '../request-info.ts';
import { authenticatedUser } from './authentication.ts';
import { authorizationFilter } from './authorization.ts';
import { impersonationFilter, type ImpersonationSource } from './impersonation.ts';

/** What the filters need from the server. */
export interface FilterDeps {
  readonly authorizer: Authorizer;
}

/** The request as the filters see it. */
export interface FilteredRequest extends ImpersonationSource {
  readonly headers: IncomingHttpHeaders;
  readonly method: string;
  readonly query: URLSearchParams;
  /** The parsed request; null for a method a resource path does not take (routing answers 405 after the filters). */
  readonly info: RequestInfo | null;
}

/** Runs the filters; returns the user the request goes on as, or throws the 403 or plain 500 to answer. */
export async function runRequestFilters(deps: FilterDeps, req: FilteredRequest): Promise<UserInfo> {
  const caller = authenticatedUser(req.headers);
  const user = await impersonationFilter(deps.authorizer, caller, req);
  if (req.info !== null) await authorizationFilter(deps.authorizer, { user, method: req.method, info: req.info, query: req.query });
  return user;
}
