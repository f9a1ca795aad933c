/**
 * Seeded pseudo-random numbers for the simulator. One master stream per seed; every consumer
 * (each node's config.random, the network, the fault schedule, the clients) gets its own
 * derived stream, so adding a draw in one place does not shift the others.
 */

/** A deterministic PRNG (mulberry32). Same seed, same sequence, on every platform. */
export class Rng {
  private state: number;

  /** Starts a stream from a 32-bit seed (any safe integer is folded to 32 bits). */
  constructor(seed: number) {
    this.state = fold(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n); n must be >= 1. */
  int(n: number): number {
    if (!(n >= 1)) throw new Error(`assert: rng.int(${n})`);
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi] (inclusive). */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('assert: rng.pick from an empty array');
    return item;
  }

  /** A new independent stream named by `label`; does not advance this stream. */
  derive(label: string): Rng {
    return new Rng(fold(this.state ^ hashString(label)));
  }
}

/** FNV-1a over a string: used to name derived streams and to hash traces. */
export function hashString(s: string, h = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function fold(seed: number): number {
  const lo = seed | 0;
  const hi = Math.floor(seed / 4294967296) | 0;
  return (Math.imul(lo ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(hi, 0xc2b2ae35)) >>> 0 || 1;
}
