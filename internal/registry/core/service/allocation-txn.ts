import type { KObject } from '../../schema/declaration.ts';
import type { FinishWrite, WriteOutcome } from '../../generic/write-hooks.ts';
import { ipAllocationPrefix, nodePortAllocationPrefix, type AllocationKeys, type AllocationOwner, type AllocationSpace } from './allocator.ts';
import { canonicalIp, parseIp, portStaticBand, type IpRange, type PortRange } from './ip-range.ts';

/** The allocation key of a cluster IP (any spelling of the address gives the same key). */
export function ipKey(ip: string): string | undefined {
  const canonical = canonicalIp(ip);
  return canonical === undefined ? undefined : `${ipAllocationPrefix}${canonical}`;
}

/** The allocation key of a node port. */
export function nodePortKey(port: number): string {
  return `${nodePortAllocationPrefix}${port}`;
}

/** The addresses of `range` as an allocation space. */
export function ipSpace(range: IpRange): AllocationSpace {
  return {
    prefix: ipAllocationPrefix,
    size: range.size,
    band: range.staticBand,
    keyAt: (offset) => `${ipAllocationPrefix}${range.addressAt(offset)}`,
    offsetOfKey(key) {
      const ip = parseIp(key.slice(ipAllocationPrefix.length));
      return ip === undefined ? undefined : range.offsetOf(ip);
    },
  };
}

/** The node ports of `range` as an allocation space. */
export function nodePortSpace(range: PortRange): AllocationSpace {
  return {
    prefix: nodePortAllocationPrefix,
    size: range.size,
    band: portStaticBand(range),
    keyAt: (offset) => nodePortKey(range.base + offset),
    offsetOfKey(key) {
      const text = key.slice(nodePortAllocationPrefix.length);
      const offset = /^\d+$/.test(text) ? Number(text) - range.base : -1;
      return offset >= 0 && offset < range.size ? offset : undefined;
    },
  };
}

/** The owner record of a Service (its uid decides who may release). */
export function ownerOf(svc: KObject): AllocationOwner {
  return { namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '', uid: svc.metadata.uid ?? '' };
}

/**
 * The allocations of one Service write: what it claimed (released if the write is refused) and
 * what it dropped (released once the write is applied). When the outcome is unknown both stay:
 * the repair pass frees whichever the stored Service does not hold. A dry run writes nothing
 * and only remembers its picks, so one request never gets the same value twice.
 */
export class AllocationTxn {
  private readonly claimed: string[] = [];
  private readonly dropped: string[] = [];
  private readonly picked = new Set<string>();

  constructor(
    private readonly keys: AllocationKeys,
    private readonly owner: AllocationOwner,
    readonly dryRun: boolean,
    private readonly log: (message: string, err?: unknown) => void,
  ) {}

  /** Claims `key`; false when another holds it. */
  async claim(key: string): Promise<boolean> {
    if (this.picked.has(key)) return false;
    const ok = await this.keys.claim(key, this.owner, this.dryRun);
    if (ok) this.record(key);
    return ok;
  }

  /** Claims a free value of `space`; its offset, or undefined when the space is full. */
  async claimNext(space: AllocationSpace): Promise<number | undefined> {
    const offset = await this.keys.claimNext(space, this.owner, this.dryRun, (key) => this.picked.has(key));
    if (offset !== undefined) this.record(space.keyAt(offset));
    return offset;
  }

  /** Releases `key` once the write is applied. */
  drop(key: string): void {
    this.dropped.push(key);
  }

  /** The FinishWrite of this transaction. Never throws: a failed release is logged (and leaks until the repair pass). */
  readonly finish: FinishWrite = async (outcome: WriteOutcome) => {
    if (this.dryRun || outcome === 'unknown') return;
    for (const key of outcome === 'applied' ? this.dropped : this.claimed) {
      try {
        if (!(await this.keys.release(key, this.owner.uid))) this.log(`service ${this.owner.namespace}/${this.owner.name}: ${key} is not held by it, left alone`);
      } catch (err) {
        this.log(`service ${this.owner.namespace}/${this.owner.name}: could not release ${key}`, err);
      }
    }
  };

  private record(key: string): void {
    this.picked.add(key);
    if (!this.dryRun) this.claimed.push(key);
  }
}
