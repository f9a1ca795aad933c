import { randomInt } from 'node:crypto';
import { StorageError, type Storage } from '../../../storage/storage.ts';
import { allocationRandomAttemptsMax, allocationReleaseAttemptsMax, allocationScanAttemptsMax, listPageItemsMax } from '../../generic/limits.ts';

/** Storage keys of allocated Service cluster IPs: `<prefix><canonical ip>`. */
export const ipAllocationPrefix = '/core/serviceipallocations/';

/** Storage keys of allocated node ports (health check ports included): `<prefix><port>`. */
export const nodePortAllocationPrefix = '/core/servicenodeportallocations/';

/** The Service an allocation belongs to, stored as the allocation key's value. */
export interface AllocationOwner {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/**
 * A set of numbered values (the addresses of one IP range, or the node ports), each held by at
 * most one owner through one storage key. `band`: offsets below it are taken last by `claimNext`.
 */
export interface AllocationSpace {
  readonly prefix: string;
  readonly size: number;
  readonly band: number;
  /** The storage key of the value at `offset`. */
  keyAt(offset: number): string;
  /** The offset of a key of this space, or undefined when the key is another space's. */
  offsetOfKey(key: string): number | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The owner stored at an allocation key, or undefined when the value is not one. */
export function decodeOwner(value: Uint8Array): AllocationOwner | undefined {
  try {
    const owner = JSON.parse(decoder.decode(value)) as Partial<AllocationOwner>;
    return typeof owner.uid === 'string' && typeof owner.name === 'string' && typeof owner.namespace === 'string' ? (owner as AllocationOwner) : undefined;
  } catch {
    return undefined;
  }
}

function encodeOwner(owner: AllocationOwner): Uint8Array {
  return encoder.encode(JSON.stringify({ namespace: owner.namespace, name: owner.name, uid: owner.uid }));
}

/**
 * Claims and releases allocation keys in the replicated store. Uniqueness across replicas comes
 * from the store's create, which fails with KeyExists when the key is there: whoever's create
 * is applied first holds the value; nothing is remembered in memory. A dry run only reads.
 */
export class AllocationKeys {
  constructor(private readonly storage: Storage) {}

  /** Claims `key` for `owner`: false when another holds it. On dry run, whether it is free now. */
  async claim(key: string, owner: AllocationOwner, dryRun: boolean): Promise<boolean> {
    if (dryRun) return (await this.storage.get(key)) === null;
    try {
      await this.storage.create(key, encodeOwner(owner));
      return true;
    } catch (err) {
      if (err instanceof StorageError && err.code === 'KeyExists') return false;
      throw err;
    }
  }

  /**
   * Claims a free value of `space` for `owner`, picked at random: first among the offsets at or
   * above the band, then below it. A few random tries first (a local read skips ones seen taken),
   * then a list of what is taken and a random free pick, retried when another claims it first.
   * `skip` names keys to pass over (a dry run's earlier picks). Returns the offset, or undefined
   * when the space is full.
   */
  async claimNext(space: AllocationSpace, owner: AllocationOwner, dryRun: boolean, skip: (key: string) => boolean = () => false): Promise<number | undefined> {
    if (space.size === 0) return undefined;
    for (let attempt = 0; attempt < allocationRandomAttemptsMax; attempt++) {
      const offset = space.band < space.size ? space.band + randomInt(space.size - space.band) : randomInt(space.size);
      const key = space.keyAt(offset);
      if (skip(key) || (await this.storage.get(key, { consistency: 'local' })) !== null) continue;
      if (await this.claim(key, owner, dryRun)) return offset;
    }
    for (let attempt = 0; attempt < allocationScanAttemptsMax; attempt++) {
      const offset = pickFree(space, await this.takenOffsets(space), skip);
      if (offset === undefined) return undefined;
      if (await this.claim(space.keyAt(offset), owner, dryRun)) return offset;
    }
    throw new StorageError('Unavailable', `could not claim a free value of ${space.prefix} after ${allocationScanAttemptsMax} rounds lost to concurrent claims`);
  }

  /**
   * Releases `key` if `ownerUid` holds it (a value someone else holds is left alone, so a
   * release can never free another Service's address). Returns whether the key is gone or
   * was not ours. Absent keys count as released.
   */
  async release(key: string, ownerUid: string): Promise<boolean> {
    for (let attempt = 0; attempt < allocationReleaseAttemptsMax; attempt++) {
      const current = await this.storage.get(key);
      if (current === null) return true;
      if (decodeOwner(current.value)?.uid !== ownerUid) return false;
      try {
        await this.storage.delete(key, { expectedRevision: current.modRevision });
        return true;
      } catch (err) {
        if (!(err instanceof StorageError) || (err.code !== 'Conflict' && err.code !== 'KeyNotFound')) throw err;
      }
    }
    return false;
  }

  /** Offsets of `space` held now (a linearizable list of its prefix). */
  private async takenOffsets(space: AllocationSpace): Promise<Set<number>> {
    const taken = new Set<number>();
    let startKey: string | undefined;
    do {
      const page = await this.storage.list({ prefix: space.prefix, ...(startKey === undefined ? {} : { startKey }), limit: listPageItemsMax, countRemaining: false });
      for (const kv of page.items) {
        const offset = space.offsetOfKey(kv.key);
        if (offset !== undefined) taken.add(offset);
      }
      startKey = page.nextKey ?? undefined;
    } while (startKey !== undefined);
    return taken;
  }
}

/** A random free offset (upper band first, then the lower one): a random start, then the next free one. */
function pickFree(space: AllocationSpace, taken: ReadonlySet<number>, skip: (key: string) => boolean): number | undefined {
  const scan = (from: number, to: number): number | undefined => {
    if (to <= from) return undefined;
    const start = from + randomInt(to - from);
    for (let i = 0; i < to - from; i++) {
      const offset = from + ((start - from + i) % (to - from));
      if (!taken.has(offset) && !skip(space.keyAt(offset))) return offset;
    }
    return undefined;
  };
  return scan(Math.min(space.band, space.size), space.size) ?? scan(0, Math.min(space.band, space.size));
}
