// The impersonation filter (kube-apiserver's WithImpersonation): Impersonate-User, -Group, -Uid and
// -Extra-* ask to act as someone else; each is an `impersonate` check of the caller (authz/impersonation.ts).
// The headers are removed afterwards, so nothing further down mistakes them for the caller's.
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../authn/user-info.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import { impersonate, isImpersonationHeader, type HeaderValues } from '../../authz/impersonation.ts';

/** The part of a request the filter reads and changes. */
export interface ImpersonationSource {
  readonly headers: IncomingHttpHeaders;
  /** name, value, name, value...: every value of a repeated header (Node's `headers` joins them with ", "). */
  readonly rawHeaders?: readonly string[];
}

function impersonationHeaders(req: ImpersonationSource): HeaderValues {
  const values: Record<string, string[]> = {};
  const raw = req.rawHeaders;
  if (raw !== undefined) {
    // Impersonate-Group may repeat: each value is one group, never the joined list.
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = (raw[i] ?? '').toLowerCase();
      if (isImpersonationHeader(name)) (values[name] ??= []).push(raw[i + 1] ?? '');
    }
    return values;
  }
  for (const [name, value] of Object.entries(req.headers)) {
    if (!isImpersonationHeader(name) || value === undefined) continue;
    values[name.toLowerCase()] = Array.isArray(value) ? [...value] : [value];
  }
  return values;
}

/**
 * The user the request goes on as: the caller, or whom it may impersonate. Throws the 403 of the
 * first refused check or the plain-text 500 of a malformed request (PlainInternalError).
 */
export async function impersonationFilter(authorizer: Authorizer, caller: UserInfo, req: ImpersonationSource): Promise<UserInfo> {
  const headers = impersonationHeaders(req);
  if (Object.keys(headers).length === 0) return caller;
  const impersonated = await impersonate({ authorizer, caller, headers });
  for (const name of Object.keys(req.headers)) if (isImpersonationHeader(name)) delete req.headers[name];
  return impersonated ?? caller;
}
