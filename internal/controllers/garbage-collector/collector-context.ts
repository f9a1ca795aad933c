import type { ObjectGraph } from './object-graph.ts';
import type { ResourceIndex } from './resource-index.ts';
import type { WorkQueue } from './work-queue.ts';
import { reportedReferencesMax } from './limits.ts';

/** What the item handlers share: the graph (cache), the resource index, the queue and the log. */
export interface CollectorContext {
  readonly graph: ObjectGraph;
  readonly index: ResourceIndex;
  readonly queue: WorkQueue;
  /** Logs `message` once per `key` (a bounded memory: forgotten when full, then logged again). */
  readonly reportOnce: (key: string, message: string) => void;
}

/** A reportOnce over `log`. */
export function onceReporter(log: (message: string) => void): (key: string, message: string) => void {
  const seen = new Set<string>();
  return (key, message) => {
    if (seen.has(key)) return;
    if (seen.size >= reportedReferencesMax) seen.clear();
    seen.add(key);
    log(message);
  };
}
