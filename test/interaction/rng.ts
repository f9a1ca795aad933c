/**
 * A small seeded pseudo-random generator (mulberry32), so that each node's randomized
 * election timeout is the same on every run of a script.
 */

/** Returns a function yielding numbers in [0, 1), fully determined by `seed`. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of a node's generator: stable per node id and per restart, so restarts are replayable too. */
export function nodeSeed(id: string, restarts: number): number {
  let h = 2166136261;
  for (const ch of `${id}#${restarts}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}
