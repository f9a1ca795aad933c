// kube-apiserver's max-in-flight filter (WithMaxInFlightLimit), used when API Priority and Fairness
// is off: at most `readOnly` read-only and `mutating` mutating requests run at once; past either,
// the request is refused (429). A limit of 0 is no limit. Which requests are counted at all (not the
// long-running ones) and who is served anyway (system:masters) is the caller's to decide.
export class MaxInFlight {
  private readOnlyRunning = 0;
  private mutatingRunning = 0;

  constructor(
    private readonly readOnlyLimit: number,
    private readonly mutatingLimit: number,
  ) {}

  /** Takes a place of the request's kind: its release (idempotent), or null when none is free. */
  tryAcquire(mutating: boolean): (() => void) | null {
    const limit = mutating ? this.mutatingLimit : this.readOnlyLimit;
    const running = mutating ? this.mutatingRunning : this.readOnlyRunning;
    if (limit > 0 && running >= limit) return null;
    if (mutating) this.mutatingRunning++;
    else this.readOnlyRunning++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (mutating) this.mutatingRunning--;
      else this.readOnlyRunning--;
    };
  }

  /** The requests of each kind running now. */
  inflight(): { readonly readOnly: number; readonly mutating: number } {
    return { readOnly: this.readOnlyRunning, mutating: this.mutatingRunning };
  }
}
