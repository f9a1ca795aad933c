// Compiled expressions are kept, so a rule is compiled once and not per request: programs by
// (variables, expression), and per-schema results by the schema node's identity.
import { compileCacheEntriesMax } from './limits.ts';
import { compileProgram, type CompileOutcome } from './program.ts';

/** A bounded map that drops its oldest entry when full. */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly entriesMax: number) {}

  /** The value under `key`, made by `make` (and kept) on a miss. */
  get(key: string, make: () => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const made = make();
    if (this.entries.size >= this.entriesMax) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, made);
    return made;
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }
}

const programs = new BoundedCache<CompileOutcome>(compileCacheEntriesMax);

/** The compiled program of `expression` over `variables`; the same object for the same inputs. */
export function cachedProgram(expression: string, variables: readonly string[]): CompileOutcome {
  return programs.get(`${variables.join(',')}\u0000${expression}`, () => compileProgram(expression, variables));
}

/** Results kept per schema node (by identity) and per key, dropped with the schema. */
export class SchemaKeyedCache<V> {
  private readonly bySchema = new WeakMap<object, BoundedCache<V>>();

  /** The value for (`schema`, `key`), made by `make` (and kept) on a miss. */
  get(schema: object, key: string, make: () => V): V {
    let cache = this.bySchema.get(schema);
    if (cache === undefined) {
      cache = new BoundedCache<V>(compileCacheEntriesMax);
      this.bySchema.set(schema, cache);
    }
    return cache.get(key, make);
  }
}
