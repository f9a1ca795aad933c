// How many seats a request occupies while it runs, as kube-apiserver 1.28's work estimator
// (k8s.io/apiserver/pkg/util/flowcontrol/request: width.go, list_work_estimator.go) decides:
// a list (or a watch that asks for its initial events) costs one seat per 100 objects it is
// expected to go through, between 1 and the level's maximum; anything else costs 1 seat.
// Not done here: kube's mutating estimator (create, update, patch, delete hold extra seats after
// they finish, for the watchers they notify) and the watch initialization estimate beyond seats.
import type { PriorityLevel, RequestDigest } from './types.ts';

/** One seat per this many objects a list goes through (WorkEstimatorConfig.ObjectsPerSeat). */
export const objectsPerSeat = 100;
/** The fewest seats a request occupies (MinimumSeats). */
export const minimumSeats = 1;
/** The most seats a request occupies, whatever its level (MaximumSeatsLimit). */
export const maximumSeatsLimit = 10;
/** A level's maximum seats as a share of its nominal limit (priorityLevelMaxSeatsPercent). */
const levelMaxSeatsFraction = 0.15;

/** What the estimate reads of a list's query (metav1.ListOptions). */
export interface ListQuery {
  readonly limit?: number;
  /** Whether a labelSelector or fieldSelector is given (non-empty). */
  readonly hasSelectors: boolean;
  /** '' or absent: the most recent (a consistent read). */
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  /** The continue token, when paging. */
  readonly continue?: string;
  /** A watch's sendInitialEvents. */
  readonly sendInitialEvents?: boolean;
}

/**
 * How many objects of a resource are stored, or undefined when unknown (kube then assumes the
 * request is cheap: minimum seats). kube counts per group and resource, all namespaces together;
 * `namespace` is given for a counter that can do better, and is '' for a cluster-wide request.
 */
export type ObjectCounter = (apiGroup: string, resource: string, namespace: string) => number | undefined;

/**
 * The most seats a request of `level` may occupy (kube 1.28's MaxSeatsTracker): for a level with
 * queues, max(1, min(ceil(15% of its limit), its limit / handSize)); elsewhere the global maximum.
 * At most maximumSeatsLimit either way.
 */
export function maxSeatsOf(level: PriorityLevel): number {
  if (level.exempt || level.queuing === null) return maximumSeatsLimit;
  const relative = Math.max(1, Math.min(Math.ceil(level.concurrencyLimit * levelMaxSeatsFraction), Math.floor(level.concurrencyLimit / level.queuing.handSize)));
  return Math.min(relative, maximumSeatsLimit);
}

/**
 * Whether the list is served from storage rather than the watch cache (kube 1.28's
 * shouldListFromStorage, APIListChunking on, ConsistentListFromCache off as by default): a
 * consistent read, a continuation, a limit at a resourceVersion other than "0", or an exact
 * resourceVersionMatch.
 */
export function listsFromStorage(query: ListQuery): boolean {
  const resourceVersion = query.resourceVersion ?? '';
  const hasLimit = (query.limit ?? 0) > 0 && resourceVersion !== '0';
  return resourceVersion === '' || (query.continue ?? '') !== '' || hasLimit || query.resourceVersionMatch === 'Exact';
}

/** How many objects the list is expected to go through. */
function objectsToProcess(stored: number, query: ListQuery, fromCache: boolean): number {
  const limit = query.limit !== undefined && query.limit > 0 && query.limit < stored ? query.limit : stored;
  // The cache walks every object, whatever the limit; storage reads a page, and with selectors
  // possibly every object to fill it; kube counts the page twice (read, then encoded).
  if (fromCache) return stored;
  if (query.hasSelectors) return stored + limit;
  return 2 * limit;
}

/**
 * The seats a request occupies, between minimumSeats and `maxSeats` (0 or more than
 * maximumSeatsLimit: maximumSeatsLimit). Only list and watch requests cost more than one.
 */
export function estimateSeats(digest: RequestDigest, objectCount: ObjectCounter, query: ListQuery, maxSeats = maximumSeatsLimit): number {
  const resource = digest.resource;
  if (resource === undefined || (resource.verb !== 'list' && resource.verb !== 'watch')) return minimumSeats;
  const most = maxSeats <= 0 || maxSeats > maximumSeatsLimit ? maximumSeatsLimit : maxSeats;
  // A list of one named object (a metadata.name field selector) is a get in storage.
  if (resource.name !== '') return minimumSeats;
  // A watch costs more only when it lists first.
  if (resource.verb === 'watch' && query.sendInitialEvents !== true) return minimumSeats;
  const fromCache = resource.verb === 'watch' || !listsFromStorage(query);
  const stored = objectCount(resource.apiGroup, resource.resource, resource.namespace);
  if (stored === undefined) return minimumSeats;
  const seats = Math.ceil(objectsToProcess(stored, query, fromCache) / objectsPerSeat);
  return Math.min(Math.max(seats, minimumSeats), most);
}
