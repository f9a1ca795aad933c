// Compiled expressions are kept, so a rule is compiled once and not per request: programs by
// (variables, expression), and per-schema results by the schema node's identity.
import { BoundedCache } from '../bounded-cache.ts';
import { compileCacheEntriesMax } from './limits.ts';
import { compileProgram, type CompileOutcome } from './program.ts';

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
