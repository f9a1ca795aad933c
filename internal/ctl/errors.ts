// Turns whatever a command threw into the one line orchctl prints: what went wrong and what to do.
import { ApiError, KubeconfigError, UnavailableError, UnknownOutcomeError, WatchError } from '../client/errors.ts';
import { CtlError } from './command.ts';

/** What to do about an API error, by HTTP status. */
function apiHint(error: ApiError): string {
  switch (error.status) {
    case 401:
      return 'check the credentials of the kubeconfig user (--kubeconfig, --context)';
    case 403:
      return 'ask for the permission (operations need cluster-admin) or use another --context';
    case 404:
      return 'check the name (and the namespace, -n)';
    case 409:
      return 'look at the current state and retry';
    case 503:
      return 'retry when the cluster has a leader (orchctl status)';
    case 504:
      return 'the cluster did not finish in time: check orchctl status and retry';
    default:
      return 'see the message above';
  }
}

/** The first line of an error's message, without a trailing period. */
function oneLine(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/\.$/, '');
}

/** The innermost useful message of an error's cause chain (an ApiError's, above all). */
export function causeText(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (cause === undefined || cause === null) break;
    current = cause;
  }
  if (current instanceof ApiError) return `${current.endpoint} answered ${current.status} ${current.reason}: ${oneLine(current.message)}`;
  if (current instanceof Error) {
    const code = (current as { code?: unknown }).code;
    return typeof code === 'string' ? `${oneLine(current.message)} (${code})` : oneLine(current.message);
  }
  return String(current);
}

/** Whether `error` is an abort (our request timeout or the user's interrupt). */
export function isAbort(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown } | null;
  return e !== null && typeof e === 'object' && (e.name === 'AbortError' || e.name === 'TimeoutError' || e.code === 'UND_ERR_ABORTED');
}

/** The CtlError to report for `error`; `timeoutText` names the request timeout in force. */
export function toCtlError(error: unknown, timeoutText?: string): CtlError {
  if (error instanceof CtlError) return error;
  if (error instanceof ApiError) {
    return new CtlError(`${oneLine(error.message)} (${error.status} ${error.reason} from ${error.endpoint}); ${apiHint(error)}`);
  }
  if (error instanceof UnavailableError) {
    return new CtlError(`no replica could serve the request: ${causeText(error)}; check that the cluster runs and that the kubeconfig or --endpoints point at it`);
  }
  if (error instanceof UnknownOutcomeError) {
    return new CtlError(`the request may or may not have been applied: ${causeText(error)}; check the current state before retrying`);
  }
  if (error instanceof KubeconfigError) return new CtlError(`${oneLine(error.message)}; fix the kubeconfig or pass --kubeconfig / --context`);
  if (error instanceof WatchError) return new CtlError(`${oneLine(error.message)}; check orchctl status and watch again`);
  if (isAbort(error)) return new CtlError(`the request timed out${timeoutText === undefined ? '' : ` after ${timeoutText}`}; check orchctl status or raise --request-timeout`);
  const name = (error as { name?: unknown } | null)?.name;
  // Errors of the client and storage modules whose messages are already one line for a person.
  if (name === 'ExecPluginError' || name === 'SnapshotFileError' || name === 'RestoreDataDirError' || name === 'FormatVersionError') {
    return new CtlError(oneLine((error as Error).message));
  }
  if (error instanceof Error) return new CtlError(`${oneLine(error.message)}${causeText(error) === oneLine(error.message) ? '' : ` (${causeText(error)})`}`);
  return new CtlError(String(error));
}
