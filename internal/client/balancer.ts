// Chooses the endpoint for the next attempt of a request among the available ones.
import { assert } from './assert.ts';
import type { Endpoint } from './endpoints.ts';

/** How requests are spread: in turn, or to the endpoint with the fewest requests in flight. */
export type BalancePolicy = 'round-robin' | 'least-outstanding';

/** Picks endpoints by policy, skipping ejected ones and those a retry wants to avoid. */
export class Balancer {
  private next = 0;

  constructor(
    /** The endpoints, in configuration order; never empty. */
    readonly endpoints: readonly Endpoint[],
    private readonly policy: BalancePolicy,
  ) {
    assert(endpoints.length > 0, 'a balancer needs at least one endpoint');
  }

  /**
   * The endpoint for the next attempt. Prefers available endpoints not in `avoid`; then available
   * ones in `avoid`; when every endpoint is ejected, the one whose ejection ends first (trying a
   * possibly-dead endpoint beats failing without trying). Never returns undefined.
   */
  pick(avoid: ReadonlySet<Endpoint> = new Set()): Endpoint {
    const available = this.endpoints.filter((e) => e.isAvailable());
    const preferred = available.filter((e) => !avoid.has(e));
    const candidates = preferred.length > 0 ? preferred : available;
    if (candidates.length === 0) return this.leastEjected(avoid);
    return this.policy === 'round-robin' ? this.roundRobin(candidates) : this.leastOutstanding(candidates);
  }

  private roundRobin(candidates: readonly Endpoint[]): Endpoint {
    // Walk from the cursor over the full list so the rotation is stable while the candidate set changes.
    for (let i = 0; i < this.endpoints.length; i += 1) {
      const endpoint = this.endpoints[(this.next + i) % this.endpoints.length];
      if (endpoint !== undefined && candidates.includes(endpoint)) {
        this.next = (this.next + i + 1) % this.endpoints.length;
        return endpoint;
      }
    }
    assert(false, 'round robin found no candidate');
  }

  private leastOutstanding(candidates: readonly Endpoint[]): Endpoint {
    // Ties go round-robin so an idle cluster still spreads load.
    const fewest = Math.min(...candidates.map((e) => e.outstanding));
    return this.roundRobin(candidates.filter((e) => e.outstanding === fewest));
  }

  private leastEjected(avoid: ReadonlySet<Endpoint>): Endpoint {
    const sorted = [...this.endpoints].sort((a, b) => Number(avoid.has(a)) - Number(avoid.has(b)) || a.ejectedUntil - b.ejectedUntil);
    const first = sorted[0];
    assert(first !== undefined, 'no endpoints');
    return first;
  }
}
