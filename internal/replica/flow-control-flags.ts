// --enable-priority-and-fairness, --max-requests-inflight and --max-mutating-requests-inflight, as
// kube-apiserver takes them: with APF on (the default) the two limits are summed into the server's
// concurrency limit, which must be positive; with it off each limits its kind of request, 0 being
// no limit.
import { parseGoBool } from '../apiserver/query-params.ts';
import type { FlowControlOptions } from '../apiserver/flow-control-setup.ts';
import { maxMutatingRequestsInflightDefault, maxRequestsInflightDefault } from '../flowcontrol/limits.ts';

export const flowControlFlagOptions = {
  'enable-priority-and-fairness': { type: 'string' },
  'max-requests-inflight': { type: 'string' },
  'max-mutating-requests-inflight': { type: 'string' },
} as const;

/** `--enable-priority-and-fairness` alone means true, as Go's boolean flags. */
export function normalizeFlowControlBooleanFlags(argv: readonly string[]): string[] {
  return argv.map((arg) => (arg === '--enable-priority-and-fairness' ? `${arg}=true` : arg));
}

function nonNegativeInt(text: string | undefined, flag: string, fallback: number, makeError: (message: string) => Error): number {
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw makeError(`--${flag}: "${text}" is not a non-negative integer`);
  return n;
}

/** The flow control the flags ask for. */
export function parseFlowControlFlags(values: Partial<Record<keyof typeof flowControlFlagOptions, string>>, makeError: (message: string) => Error): FlowControlOptions {
  const enabledText = values['enable-priority-and-fairness'];
  const priorityAndFairness = enabledText === undefined ? true : parseGoBool(enabledText);
  if (priorityAndFairness === undefined) throw makeError(`--enable-priority-and-fairness: "${enabledText}" is not true or false`);
  const maxRequestsInflight = nonNegativeInt(values['max-requests-inflight'], 'max-requests-inflight', maxRequestsInflightDefault, makeError);
  const maxMutatingRequestsInflight = nonNegativeInt(values['max-mutating-requests-inflight'], 'max-mutating-requests-inflight', maxMutatingRequestsInflightDefault, makeError);
  if (priorityAndFairness && maxRequestsInflight + maxMutatingRequestsInflight <= 0) {
    throw makeError('--max-requests-inflight plus --max-mutating-requests-inflight must be positive when --enable-priority-and-fairness is true');
  }
  return { priorityAndFairness, maxRequestsInflight, maxMutatingRequestsInflight };
}
