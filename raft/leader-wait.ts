/** Waiting for a RaftNode's 'leader-change' events, bounded by a timeout. */
import type { EventEmitter } from 'node:events';
import type { NodeId } from './core/index.ts';
import { RaftNodeError } from './errors.ts';

/**
 * Resolves with the leader of the first 'leader-change' that satisfies `cond`; rejects with
 * RaftNodeError Timeout after `timeoutMs`, or Stopped when the node emits 'stopped'.
 * Always removes its listeners.
 */
export function waitForLeaderChange(node: EventEmitter, cond: (leader: NodeId | null) => boolean, timeoutMs: number, what: string): Promise<NodeId | null> {
  return new Promise((resolve, reject) => {
    const listener = (leader: NodeId | null): void => {
      if (!cond(leader)) return;
      cleanup();
      resolve(leader);
    };
    const onStop = (): void => {
      cleanup();
      reject(new RaftNodeError('Stopped', 'the Raft node is stopped'));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new RaftNodeError('Timeout', `no ${what} within ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      node.off('leader-change', listener);
      node.off('stopped', onStop);
    };
    node.on('leader-change', listener);
    node.on('stopped', onStop);
  });
}
