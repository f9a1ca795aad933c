import { revision, type Revision, type Storage } from '../../storage/storage.ts';
import { badRequest } from '../errors/status-error.ts';
import { waitForRevisionMs } from './limits.ts';

/** How a read is served, derived from resourceVersion (and match) per the API's tables. */
export type ReadPlan =
  | { readonly kind: 'most-recent' }
  | { readonly kind: 'any' }
  | { readonly kind: 'not-older-than'; readonly revision: Revision }
  | { readonly kind: 'exact'; readonly revision: Revision };

/** Parses a resourceVersion query value into a revision (400 when it is not a number). */
export function parseResourceVersion(value: string): Revision {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw badRequest(`invalid resource version: "${value}"`, [{ reason: 'FieldValueInvalid', message: `Invalid value: "${value}"`, field: 'resourceVersion' }]);
  return revision(Number(value));
}

/** The read plan of a get. */
export function planGet(resourceVersion: string | undefined): ReadPlan {
  if (resourceVersion === undefined || resourceVersion === '') return { kind: 'most-recent' };
  if (resourceVersion === '0') return { kind: 'any' };
  return { kind: 'not-older-than', revision: parseResourceVersion(resourceVersion) };
}

/** The read plan of a list (without continue), following the resourceVersion/limit table. */
export function planList(opts: { resourceVersion?: string; resourceVersionMatch?: string; limit?: number }): ReadPlan {
  const rv = opts.resourceVersion ?? '';
  const match = opts.resourceVersionMatch ?? '';
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') throw badRequest(`invalid resourceVersionMatch "${match}": supported values: "Exact", "NotOlderThan"`);
  if (match !== '' && rv === '') throw badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (match === 'Exact') {
    if (rv === '0') throw badRequest('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    return { kind: 'exact', revision: parseResourceVersion(rv) };
  }
  if (rv === '') return { kind: 'most-recent' };
  if (rv === '0') return { kind: 'any' };
  const r = parseResourceVersion(rv);
  if (match === '' && opts.limit !== undefined && opts.limit > 0) return { kind: 'exact', revision: r };
  return { kind: 'not-older-than', revision: r };
}

/** Storage read options for a plan; waits for this replica to reach a not-older-than revision. */
export async function readOptionsFor(storage: Storage, plan: ReadPlan): Promise<{ consistency: 'linearizable' | 'local'; revision?: Revision }> {
  switch (plan.kind) {
    case 'most-recent':
      return { consistency: 'linearizable' };
    case 'any':
      return { consistency: 'local' };
    case 'not-older-than':
      await storage.waitForRevision(plan.revision, waitForRevisionMs);
      return { consistency: 'local' };
    case 'exact':
      return { consistency: 'local', revision: plan.revision };
  }
}
