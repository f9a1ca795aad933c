import { setTimeout as sleep } from 'node:timers/promises';
import type { Revision } from '../../storage/storage.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { onceReporter, type CollectorContext } from './collector-context.ts';
import { applyEvent, loadSource } from './graph-source.ts';
import { restartDelayMs, resyncIntervalMs, workersMax } from './limits.ts';
import { needsAttention, ObjectGraph } from './object-graph.ts';
import { runWorker } from './process-item.ts';
import { ResourceIndex } from './resource-index.ts';
import { WorkQueue } from './work-queue.ts';

/** Options of the garbage collector (tests shorten the resync). */
export interface GarbageCollectorOptions {
  /** How often the graph is rebuilt from a fresh list (default from limits.ts). */
  readonly resyncIntervalMs?: number;
}

function revisionAt(revisions: readonly Revision[], i: number): Revision {
  const r = revisions[i];
  if (r === undefined) throw new Error('assert: every source was loaded');
  return r;
}

function settledError(results: readonly PromiseSettledResult<unknown>[]): unknown {
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  return failed?.reason;
}

/**
 * One life of the graph: load every store, queue every object needing attention, then follow
 * each storage's single ordered watch while workers handle the queue. Ends normally at the
 * resync deadline, when the served resources change, or on abort; throws when a watch fails (the caller rebuilds from scratch).
 */
async function runSession(deps: ControllerDeps, index: ResourceIndex, ctxBase: Pick<CollectorContext, 'reportOnce'>, signal: AbortSignal, resyncMs: number): Promise<void> {
  const graph = new ObjectGraph();
  const queue = new WorkQueue();
  const ctx: CollectorContext = { graph, index, queue, reportOnce: ctxBase.reportOnce };
  const revisions: Revision[] = [];
  for (const source of index.sources) revisions.push(await loadSource(source, graph));
  if (signal.aborted) return;
  for (const node of graph.all()) if (needsAttention(node)) queue.add(node.uid);
  const watchers = index.sources.map((source, i) => source.storage.watch({ prefix: source.prefix, afterRevision: revisionAt(revisions, i) }));
  const stop = (): void => {
    queue.close();
    for (const w of watchers) w.stop();
  };
  signal.addEventListener('abort', stop, { once: true });
  // A custom kind coming or going changes what is tracked: the session ends and the next one indexes anew.
  const unsubscribe = deps.registry.onChange(stop);
  const timer = setTimeout(stop, resyncMs);
  try {
    const follow = watchers.map(async (watcher) => {
      try {
        for await (const event of watcher) for (const uid of applyEvent(index, graph, event)) queue.add(uid);
      } finally {
        stop();
      }
    });
    const workers = Array.from({ length: workersMax }, () => runWorker(ctx, deps.log));
    const err = settledError(await Promise.allSettled([...follow, ...workers]));
    if (err !== undefined && !signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    unsubscribe();
    signal.removeEventListener('abort', stop);
    stop();
  }
}

async function runCollector(deps: ControllerDeps, options: GarbageCollectorOptions, signal: AbortSignal): Promise<void> {
  const reportOnce = onceReporter((message) => deps.log(message));
  while (!signal.aborted) {
    try {
      await runSession(deps, new ResourceIndex(deps), { reportOnce }, signal, options.resyncIntervalMs ?? resyncIntervalMs);
    } catch (err) {
      if (signal.aborted) return;
      deps.log('garbage collector: rebuilding the object graph after an error', err);
      await sleep(restartDelayMs, undefined, { signal }).catch(() => undefined);
    }
  }
}

/**
 * The garbage collector: deletes objects whose owners are all gone (background), deletes the
 * dependents of owners terminating with `foregroundDeletion` before releasing them, and strips
 * owner references from the dependents of owners terminating with `orphan`. Level-triggered
 * from a graph it rebuilds on every start, so a new leader simply starts over.
 */
export function createGarbageCollector(deps: ControllerDeps, options: GarbageCollectorOptions = {}): Controller {
  return { name: 'garbage-collector', run: (signal) => runCollector(deps, options, signal) };
}
