// The run loop the level-triggered controllers share: each pass reads the whole state it needs
// (nothing is carried from one pass to the next); watches on the stores it reads only wake it
// early, and a periodic resync covers whatever a broken watch missed.
import type { GenericStore } from '../registry/generic/store.ts';
import type { ApiWatch, ApiWatchEvent } from '../registry/generic/watch.ts';
import type { ControllerDeps } from './controller.ts';
import { startControllerWatch } from './controller-identity.ts';
import { Wakeup } from './wakeup.ts';

/** A store whose changes wake a watched loop, optionally narrowed by a field selector. */
export interface WatchedStore {
  readonly store: GenericStore;
  readonly fieldSelector?: string;
  /** Which events wake the loop (default: every change). */
  readonly wakesOn?: (event: ApiWatchEvent) => boolean;
}

/** What one level-triggered controller gives `runWatchedLoop`. */
export interface WatchedLoop {
  /** The stores whose events wake the loop early (all namespaces). */
  readonly watched: readonly WatchedStore[];
  /** One pass over the current state; resolves to true when work still waits (the next pass then comes after `busyResyncMs`). */
  pass(signal: AbortSignal): Promise<boolean | void>;
  /** The wait before the next pass when nothing wakes the loop. */
  readonly resyncMs: number;
  /** The wait after a pass left work waiting or failed; `resyncMs` when not given. */
  readonly busyResyncMs?: number;
  /** How long events gather after a wake-up before the next pass; none when 0. */
  readonly batchMs: number;
  /** What the log says when a pass (or starting a watch) fails. */
  readonly failureMessage: string;
  /** Where failed passes are reported (the controller's `deps.log`). */
  readonly log: ControllerDeps['log'];
}

/** Feeds a watch's events into `wake` until the watch ends, then calls `ended`. */
function follow(watch: ApiWatch, wake: Wakeup, wakesOn: WatchedStore['wakesOn'], ended: () => void): void {
  void (async () => {
    try {
      for await (const event of watch.events) if (event.type !== 'BOOKMARK' && (wakesOn === undefined || wakesOn(event))) wake.fire();
    } catch {
      // The watch broke (compaction, store closing): the next pass re-watches.
    } finally {
      // No wake-up here: a watch failing at once must not spin the loop; the resync re-watches.
      ended();
    }
  })();
}

/** Starts the watches not running yet, each from the current resourceVersion of its store. */
async function ensureWatches(loop: WatchedLoop, watches: Map<WatchedStore, ApiWatch>, wake: Wakeup, signal: AbortSignal): Promise<void> {
  for (const watched of loop.watched) {
    if (watches.has(watched) || signal.aborted) continue;
    const selector = watched.fieldSelector === undefined ? {} : { fieldSelector: watched.fieldSelector };
    const list = await watched.store.list(undefined, { limit: 1, ...selector });
    const started = await startControllerWatch(watched.store, undefined, { resourceVersion: list.metadata.resourceVersion, ...selector });
    watches.set(watched, started);
    follow(started, wake, watched.wakesOn, () => {
      if (watches.get(watched) === started) watches.delete(watched);
    });
  }
}

/**
 * Runs `loop` until `signal` aborts: start the missing watches, run a pass, wait for the resync or
 * a wake-up, let events gather for `batchMs`, again. A failed pass is logged and retried on the
 * next turn; on abort the watches stop and the wait ends at once. Resolves once stopped.
 */
export async function runWatchedLoop(loop: WatchedLoop, signal: AbortSignal): Promise<void> {
  const busyMs = loop.busyResyncMs ?? loop.resyncMs;
  const wake = new Wakeup();
  const watches = new Map<WatchedStore, ApiWatch>();
  const onAbort = (): void => {
    for (const w of watches.values()) w.stop();
    wake.fire();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (!signal.aborted) {
      let busy = true;
      try {
        await ensureWatches(loop, watches, wake, signal);
        busy = (await loop.pass(signal)) === true;
      } catch (err) {
        if (!signal.aborted) loop.log(loop.failureMessage, err);
      }
      if (signal.aborted) break;
      await wake.wait(busy ? busyMs : loop.resyncMs);
      // Let a burst of events (a drain, a rollout) gather into one pass.
      if (!signal.aborted && loop.batchMs > 0) await new Promise((resolve) => setTimeout(resolve, loop.batchMs));
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    for (const w of watches.values()) w.stop();
  }
}
