import { hasStatus } from '../../registry/errors/status-error.ts';
import { attemptToDelete } from './attempt-to-delete.ts';
import type { CollectorContext } from './collector-context.ts';
import { deletingDependents, orphaningDependents } from './object-graph.ts';
import { processForegroundOwner, processOrphanOwner } from './owner-finalizers.ts';

/** Handles the object `uid` as the graph now shows it: an owner waiting for the collector, or a dependent. */
export async function processItem(ctx: CollectorContext, uid: string): Promise<void> {
  const node = ctx.graph.get(uid);
  if (!node) return;
  if (deletingDependents(node)) await processForegroundOwner(ctx, node);
  else if (orphaningDependents(node)) await processOrphanOwner(ctx, node);
  else if (!node.terminating && node.owners.length > 0) await attemptToDelete(ctx, node);
}

/**
 * Takes items from the queue until it closes. A 404 means the object went meanwhile (done); a
 * 409 a lost race or a reused name (retried quietly: the graph will have moved on); anything
 * else is logged and retried with backoff.
 */
export async function runWorker(ctx: CollectorContext, log: (message: string, err?: unknown) => void): Promise<void> {
  for (;;) {
    // Yield to timers and I/O between items, so no burst of queued work can starve them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const uid = await ctx.queue.next();
    if (uid === undefined) return;
    try {
      await processItem(ctx, uid);
      ctx.queue.forget(uid);
    } catch (err) {
      if (hasStatus(err, 404)) ctx.queue.forget(uid);
      else {
        if (!hasStatus(err, 409)) log(`garbage collector: handling ${uid} failed; will retry`, err);
        ctx.queue.retry(uid);
      }
    } finally {
      ctx.queue.done(uid);
    }
  }
}
