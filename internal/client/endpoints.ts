// Health of one API endpoint as this client sees it. An endpoint that fails with a connection
// error or 503 is ejected for a backoff period; after it, a /readyz probe must succeed before the
// balancer uses the endpoint again. The probe itself is run by the owner (the client) because it
// needs the transport; this module only keeps the state and its transitions.
import { ejectionMs, type Clock } from './backoff.ts';
import { ejectionBackoffBaseMs, ejectionBackoffMaxMs } from './limits.ts';

/** Where an endpoint stands: usable, ejected until a time, or being probed. */
export type EndpointState = 'healthy' | 'ejected' | 'probing';

/** One API endpoint (a replica's base URL) with its health and load. */
export class Endpoint {
  /** Requests sent to this endpoint and not yet completed; the least-outstanding policy reads it. */
  outstanding = 0;
  private stateValue: EndpointState = 'healthy';
  private consecutiveFailures = 0;
  private ejectedUntilMs = 0;

  constructor(
    /** Base URL, e.g. https://127.0.0.1:6443 (no trailing slash). */
    readonly url: string,
    private readonly clock: Clock,
    private readonly backoff = { baseMs: ejectionBackoffBaseMs, maxMs: ejectionBackoffMaxMs },
  ) {}

  /** Current state; an ejected endpoint whose period has passed still reads `ejected` until probed. */
  get state(): EndpointState {
    return this.stateValue;
  }

  /** Milliseconds since the epoch at which the current ejection ends (0 when never ejected). */
  get ejectedUntil(): number {
    return this.ejectedUntilMs;
  }

  /** True when the balancer may send requests here. */
  isAvailable(): boolean {
    return this.stateValue === 'healthy';
  }

  /** True when the ejection period has passed and no probe is running: time to run one. */
  isDueForProbe(): boolean {
    return this.stateValue === 'ejected' && this.clock.now() >= this.ejectedUntilMs;
  }

  /** Records a request that succeeded (any answer other than a connection error or 503). */
  recordSuccess(): void {
    this.consecutiveFailures = 0;
    this.stateValue = 'healthy';
  }

  /** Records a connection error or 503: ejects the endpoint for a growing, jittered period. */
  recordFailure(): void {
    this.consecutiveFailures += 1;
    this.stateValue = 'ejected';
    this.ejectedUntilMs = this.clock.now() + ejectionMs(this.consecutiveFailures, this.backoff.baseMs, this.backoff.maxMs, this.clock.random);
  }

  /** Marks the start of a /readyz probe; returns false when no probe is due (caller skips it). */
  beginProbe(): boolean {
    if (!this.isDueForProbe()) return false;
    this.stateValue = 'probing';
    return true;
  }

  /** Ends a probe: healthy again on success, ejected for a longer period on failure. */
  endProbe(ready: boolean): void {
    if (this.stateValue !== 'probing') return;
    if (ready) this.recordSuccess();
    else this.recordFailure();
  }
}
