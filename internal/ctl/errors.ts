// Turns whatever a command threw into the one line orchctl prints: what went wrong and what to do.
import { ApiError, KubeconfigError, UnavailableError, UnknownOutcomeError, WatchError } from '../client/errors.ts';
import { CtlError } from './command.ts';

/**
 * What to do about an API error, by HTTP status, where the command gave no better hint: only
 * advice true of any command; otherwise nothing (the server's message stands alone).
 */
const defaultApiHints: ApiHints = {
  401: 'check the credentials of the kubeconfig user (--kubeconfig, --context)',
  403: 'ask for the permission (operations need cluster-admin) or use another --context',
  409: 'look at the current state and retry',
  503: 'retry in a moment; orchctl status shows the replicas and the leader',
  504: 'the cluster did not finish in time: check orchctl status and retry',
};

/** The hints of the commands that work on objects: a 404 is a wrong name or namespace. */
export const objectHints: ApiHints = { 404: 'check the name (and the namespace, -n)' };

/** Hints a command gives for the statuses its calls answer (`member remove`'s 404: see orchctl member list); '' for none. */
export type ApiHints = Readonly<Partial<Record<number, string>>>;

/** What to do about `error`: the command's hint for its status, else the default, else none. */
function apiHint(error: ApiError, hints: ApiHints | undefined): string | undefined {
  return hints?.[error.status] ?? defaultApiHints[error.status];
}

/** `text` with `cause` appended in parentheses, unless the text says it already. */
function withCause(text: string, cause: string): string {
  return cause === '' || text.includes(cause) ? text : `${text} (${cause})`;
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
    return typeof code === 'string' ? withCause(oneLine(current.message), code) : oneLine(current.message);
  }
  return String(current);
}

/** Whether `error` is an abort (our request timeout or the user's interrupt). */
export function isAbort(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown } | null;
  return e !== null && typeof e === 'object' && (e.name === 'AbortError' || e.name === 'TimeoutError' || e.code === 'UND_ERR_ABORTED');
}

/**
 * The CtlError to report for `error`; `timeoutText` names the request timeout in force, `hints`
 * the command's advice for the API statuses it may meet.
 */
export function toCtlError(error: unknown, timeoutText?: string, hints?: ApiHints): CtlError {
  if (error instanceof CtlError) return error;
  if (error instanceof ApiError) {
    const hint = apiHint(error, hints);
    return new CtlError(`${oneLine(error.message)} (${error.status} ${error.reason} from ${error.endpoint})${hint === undefined || hint === '' ? '' : `; ${hint}`}`);
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
  // An exec plugin's message may go on with the kubeconfig's installHint (kubectl prints it): one line, every part kept.
  if (name === 'ExecPluginError') return new CtlError((error as Error).message.split('\n').map((l) => l.trim()).filter((l) => l !== '').join('; '));
  if (name === 'SnapshotFileError' || name === 'RestoreDataDirError' || name === 'FormatVersionError') {
    return new CtlError(oneLine((error as Error).message));
  }
  if (error instanceof Error) return new CtlError(withCause(oneLine(error.message), causeText(error)));
  return new CtlError(String(error));
}
