/**
 * A cluster's identity: a name every member derives alone, the same on all of them, so that
 * founding members agree without talking and a node of another cluster is told apart.
 */
import { createHash } from 'node:crypto';
import type { NodeId } from './core/index.ts';

function idOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function sortedNames(names: Iterable<NodeId>): string {
  return [...new Set(names)].sort().join(',');
}

/**
 * The id of a cluster founded by members `names` (their NAMES, not addresses: each member may
 * reach the others by different addresses). Also the id given to a legacy log from its voters.
 */
export function foundingClusterId(names: Iterable<NodeId>): string {
  return idOf(`orch-cluster:${sortedNames(names)}`);
}

/**
 * The id of a cluster restored from the snapshot file whose sha256 is `snapshotSha256` with
 * members `names`: the same on every member restored from that file with those names, and not
 * the original cluster's.
 */
export function restoredClusterId(snapshotSha256: string, names: Iterable<NodeId>): string {
  return idOf(`orch-cluster-restored:${snapshotSha256}:${sortedNames(names)}`);
}
