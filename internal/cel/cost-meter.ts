// The runtime cost counter. Evaluation is synchronous, so the meter of the evaluation in progress
// is found on a stack rather than threaded through the engine; every charge checks the limit.
import { isCelList, isCelMap, type CelValue } from '@bufbuild/cel';

/** kube-apiserver's text for an evaluation halted by its cost limit. */
export const costLimitExceededMessage = 'operation cancelled: actual cost limit exceeded';

/** Counts the cost of one evaluation against a limit; once over, every further charge fails. */
export class CostMeter {
  /** Units charged so far. */
  cost = 0;
  /** Whether the cost went over the limit (sticky). */
  exceeded = false;
  constructor(readonly limit: number) {}

  /** Adds `units`; throws (and stays exceeded) when the total goes over the limit. */
  charge(units: number): void {
    this.cost += units;
    if (this.cost > this.limit) this.exceeded = true;
    if (this.exceeded) throw new Error(costLimitExceededMessage);
  }
}

const meters: CostMeter[] = [];

/** Runs `fn` with `meter` counting the costs charged inside it. */
export function withMeter<T>(meter: CostMeter, fn: () => T): T {
  meters.push(meter);
  try {
    return fn();
  } finally {
    meters.pop();
  }
}

/** Charges the meter of the evaluation in progress (none outside an evaluation: a no-op). */
export function charge(units: number): void {
  meters[meters.length - 1]?.charge(units);
}

/** The runtime size of a value for cost purposes: code points of strings, length of bytes, items of lists and maps, else 1. */
export function actualSize(value: CelValue | undefined): number {
  if (typeof value === 'string') return codePoints(value);
  if (value instanceof Uint8Array) return value.length;
  if (isCelList(value) || isCelMap(value)) return value.size;
  return 1;
}

function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/** Whether a value is a string or bytes (their costs grow with length). */
export function isStringLike(value: CelValue | undefined): boolean {
  return typeof value === 'string' || value instanceof Uint8Array;
}
