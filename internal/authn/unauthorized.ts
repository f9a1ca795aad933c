// The one error a client gets for any bad credential: kube-apiserver's bare `Unauthorized`.
// Which check failed stays in the server's log, so a caller cannot probe for what is wrong.
import { StatusError } from '../registry/errors/status-error.ts';

/** 401 with kube-apiserver's message and reason, and no detail. */
export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}
