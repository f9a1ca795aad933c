import { StorageError, type KeyValue, type Revision, type Storage } from '../../../storage/storage.ts';
import { collectionPrefix } from '../../generic/keys.ts';
import { listPageItemsMax } from '../../generic/limits.ts';
import { services } from '../services.ts';
import { decodeOwner, ipAllocationPrefix, nodePortAllocationPrefix, type AllocationOwner } from './allocator.ts';
import { ipKey, nodePortKey } from './allocation-txn.ts';
import { clusterIpNone, clusterIpsOf, nodePortsOf, type ServiceSpec } from './spec.ts';

/** Where Services are stored (all namespaces). */
const servicesPrefix = collectionPrefix(services, undefined);

/** Passes that must see the same allocation unheld before it is released (kube-apiserver's repair waits as many). */
export const repairSightingsBeforeRelease = 3;

/** What one repair pass did. */
export interface RepairResult {
  /** Allocation keys no stored Service held for `repairSightingsBeforeRelease` passes, now deleted. */
  readonly released: readonly string[];
  /** Keys of values a stored Service holds that had no allocation key, now created for it. */
  readonly restored: readonly string[];
}

async function listAll(storage: Storage, prefix: string, revision: Revision): Promise<KeyValue[]> {
  const all: KeyValue[] = [];
  let startKey: string | undefined;
  do {
    const page = await storage.list({ prefix, revision, limit: listPageItemsMax, countRemaining: false, ...(startKey === undefined ? {} : { startKey }) });
    all.push(...page.items);
    startKey = page.nextKey ?? undefined;
  } while (startKey !== undefined);
  return all;
}

/** Every allocation key the stored Services hold, with the holder. */
function heldKeys(services: readonly KeyValue[]): Map<string, AllocationOwner> {
  const held = new Map<string, AllocationOwner>();
  const decoder = new TextDecoder();
  for (const kv of services) {
    const svc = JSON.parse(decoder.decode(kv.value)) as { metadata?: { name?: string; namespace?: string; uid?: string }; spec?: ServiceSpec };
    const owner = { namespace: svc.metadata?.namespace ?? '', name: svc.metadata?.name ?? '', uid: svc.metadata?.uid ?? '' };
    const spec = svc.spec ?? {};
    for (const ip of clusterIpsOf(spec)) {
      const key = ip === clusterIpNone ? undefined : ipKey(ip);
      if (key !== undefined) held.set(key, owner);
    }
    for (const port of nodePortsOf(spec)) held.set(nodePortKey(port), owner);
    if (spec.healthCheckNodePort) held.set(nodePortKey(spec.healthCheckNodePort), owner);
  }
  return held;
}

/**
 * The allocation repair (kube-apiserver's ipallocator and portallocator repair controllers, on
 * our keys). Each pass reads the Services and the allocation keys at one revision. An allocation
 * no Service holds is a leak candidate: a create's allocation is written before its Service, so
 * a young candidate may be a create in flight; only one seen unheld, unchanged (same
 * modRevision), in `repairSightingsBeforeRelease` consecutive passes is deleted, and only if it is
 * still unchanged. A value a Service holds without a key (data from before allocation existed)
 * gets its key. What the passes saw lives in this object: a new leader starts counting afresh.
 */
export class AllocationRepair {
  private suspects = new Map<string, { modRevision: Revision; sightings: number }>();

  constructor(
    private readonly storage: Storage,
    private readonly log: (message: string, err?: unknown) => void,
  ) {}

  /** One pass; throws StorageError when the store fails (the next pass starts over). */
  async pass(): Promise<RepairResult> {
    const revision = await this.storage.currentRevision();
    const held = heldKeys(await listAll(this.storage, servicesPrefix, revision));
    const allocations = [...(await listAll(this.storage, ipAllocationPrefix, revision)), ...(await listAll(this.storage, nodePortAllocationPrefix, revision))];
    const suspects = new Map<string, { modRevision: Revision; sightings: number }>();
    const released: string[] = [];
    for (const kv of allocations) {
      // Held by a Service (even one other than the key names): not a leak.
      if (held.has(kv.key)) continue;
      const before = this.suspects.get(kv.key);
      const sightings = before?.modRevision === kv.modRevision ? before.sightings + 1 : 1;
      if (sightings < repairSightingsBeforeRelease) suspects.set(kv.key, { modRevision: kv.modRevision, sightings });
      else if (await this.release(kv)) released.push(kv.key);
    }
    this.suspects = suspects;
    const present = new Set(allocations.map((kv) => kv.key));
    const restored: string[] = [];
    for (const [key, owner] of held) {
      if (present.has(key)) continue;
      if (await this.restore(key, owner)) restored.push(key);
    }
    return { released, restored };
  }

  private async release(kv: KeyValue): Promise<boolean> {
    try {
      await this.storage.delete(kv.key, { expectedRevision: kv.modRevision });
      const owner = decodeOwner(kv.value);
      this.log(`service allocation repair: released ${kv.key}, held by no Service${owner ? ` (was claimed for ${owner.namespace}/${owner.name})` : ''}`);
      return true;
    } catch (err) {
      if (err instanceof StorageError && (err.code === 'Conflict' || err.code === 'KeyNotFound')) return false;
      throw err;
    }
  }

  private async restore(key: string, owner: AllocationOwner): Promise<boolean> {
    try {
      await this.storage.create(key, new TextEncoder().encode(JSON.stringify(owner)));
      this.log(`service allocation repair: ${key} of ${owner.namespace}/${owner.name} had no allocation; claimed it`);
      return true;
    } catch (err) {
      if (!(err instanceof StorageError && err.code === 'KeyExists')) throw err;
      this.log(`service allocation repair: ${key} of ${owner.namespace}/${owner.name} is claimed by another; two Services may share it`);
      return false;
    }
  }
}
