// Checks a batch of one namespace's admissions against its quotas and charges them (the quota
// admission's checkQuotas): each request is checked against the running quotas in turn; the
// quotas whose usage changed are written with compare-and-swap on their resourceVersion; a
// write that loses the race (another replica charged first) makes the batch re-read those quotas
// and re-check the requests still waiting, a bounded number of times. A request is admitted only
// once every quota it changed is written, so the store never holds usage above hard.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { listsEqual, parseResourceList, type ResourceList } from '../../../quota/resource-list.ts';
import { checkRequest, type CheckInput } from './check-request.ts';

/** One waiting admission; `settle` is called exactly once (undefined: admitted). */
export interface QuotaWaiter {
  readonly input: CheckInput;
  readonly settle: (error: unknown) => void;
}

/** Reads and writes quotas for the batch. */
export interface QuotaAccess {
  /** The namespace's quotas, read at the leader. */
  list(namespace: string): Promise<readonly KObject[]>;
  /** Writes a quota's status if its resourceVersion is unchanged; rejects otherwise (409). */
  updateStatus(namespace: string, quota: KObject): Promise<void>;
}

function used(quota: KObject | undefined): ResourceList {
  return parseResourceList((quota?.status as Record<string, unknown> | undefined)?.used);
}

/** Checks every waiter in turn against the running quotas; returns them and the waiters still owed a write. */
function checkAll(quotas: readonly KObject[], waiters: readonly QuotaWaiter[]): { running: readonly KObject[]; pending: QuotaWaiter[] } {
  let running = quotas;
  const pending: QuotaWaiter[] = [];
  for (const waiter of waiters) {
    let next: readonly KObject[];
    try {
      next = checkRequest(running, waiter.input);
    } catch (err) {
      waiter.settle(err);
      continue;
    }
    // A dry run is checked like any other request but charges nothing.
    if (waiter.input.attributes.dryRun) {
      waiter.settle(undefined);
      continue;
    }
    if (next.every((q, i) => listsEqual(used(q), used(running[i])))) {
      waiter.settle(undefined);
      continue;
    }
    pending.push(waiter);
    running = next;
  }
  return { running, pending };
}

/**
 * Checks and charges `waiters` against `quotas` (all of one namespace); every waiter is settled
 * when the returned promise resolves. `retriesLeft` bounds the re-reads after lost races.
 */
export async function checkBatch(access: QuotaAccess, namespace: string, quotas: readonly KObject[], waiters: readonly QuotaWaiter[], retriesLeft: number): Promise<void> {
  const { running, pending } = checkAll(quotas, waiters);
  if (pending.length === 0) return;
  const failed = new Set<string>();
  let lastError: unknown;
  for (let i = 0; i < running.length; i++) {
    const quota = running[i];
    if (quota === undefined || listsEqual(used(quota), used(quotas[i]))) continue;
    try {
      await access.updateStatus(namespace, quota);
    } catch (err) {
      failed.add(quota.metadata.name ?? '');
      lastError = err;
    }
  }
  if (failed.size === 0) {
    for (const w of pending) w.settle(undefined);
    return;
  }
  if (retriesLeft <= 0) {
    for (const w of pending) w.settle(lastError);
    return;
  }
  let fresh: readonly KObject[];
  try {
    fresh = await access.list(namespace);
  } catch {
    for (const w of pending) w.settle(lastError);
    return;
  }
  // Only the quotas whose write failed are checked again: the others hold these requests' charges
  // already. A quota deleted meanwhile drops out, as its charge no longer matters.
  const retry = fresh.filter((q) => failed.has(q.metadata.name ?? ''));
  await checkBatch(access, namespace, retry, pending, retriesLeft - 1);
}
