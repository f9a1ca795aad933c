// kube's buffered backend (k8s.io/apiserver plugin/pkg/audit/buffered) in front of the webhook:
// events wait in a bounded buffer and go out in batches of at most maxBatchSize, a batch at the
// latest maxBatchWait after its first event came, at most throttleQps batches a second (burst
// throttleBurst) when the throttle is on. The request never waits: an event that finds the buffer
// full is dropped and counted (apiserver_audit_error_total{plugin="buffered"}).
import { pluginErrorMessage } from './log-backend.ts';
import { webhookSendsInFlightMax, webhookShutdownWaitMs } from './limits.ts';
import type { AuditMetrics } from './metrics.ts';
import type { AuditSink, EncodedEvent } from './sink.ts';

/** The --audit-webhook-batch-* settings. */
export interface BatchOptions {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  readonly throttleEnable: boolean;
  readonly throttleQps: number;
  readonly throttleBurst: number;
}

/** A token bucket: `burst` tokens, refilled at `qps` a second. */
class Throttle {
  private tokens: number;
  private lastMs = Date.now();

  constructor(private readonly qps: number, private readonly burst: number) {
    this.tokens = burst;
  }

  /** Resolves when a token is taken. */
  async take(): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.lastMs) / 1000) * this.qps);
      this.lastMs = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ((1 - this.tokens) / this.qps) * 1000));
    }
  }
}

/** Buffers events and hands them to `deliver` in batches, in order. */
export class BufferedBackend implements AuditSink {
  private readonly queue: EncodedEvent[] = [];
  private readonly throttle: Throttle | undefined;
  private readonly inflight = new Set<Promise<void>>();
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private due = false;
  private stopping = false;
  private lastDropLogMs = 0;
  private readonly pumped: Promise<void>;

  constructor(
    private readonly deliver: (batch: readonly EncodedEvent[]) => Promise<void>,
    private readonly options: BatchOptions,
    private readonly metrics: AuditMetrics,
    /** The replica's `(message, err?)` log: with an error, a line at level error. */
    private readonly log: (message: string, err?: unknown) => void,
  ) {
    this.throttle = options.throttleEnable ? new Throttle(options.throttleQps, options.throttleBurst) : undefined;
    this.pumped = this.pump();
  }

  processEvents(events: readonly EncodedEvent[]): boolean {
    for (const [i, event] of events.entries()) {
      if (this.stopping || this.queue.length >= this.options.bufferSize) {
        this.dropped(events.slice(i));
        break;
      }
      this.queue.push(event);
    }
    if (this.queue.length >= this.options.maxBatchSize) this.signal();
    else this.armTimer();
    return true;
  }

  async shutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.signal();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pumped, new Promise((resolve) => (timer = setTimeout(resolve, webhookShutdownWaitMs)))]);
    clearTimeout(timer);
  }

  private dropped(events: readonly EncodedEvent[]): void {
    this.metrics.pluginError('buffered', events.length);
    // Logged at most once a second: a full buffer means many drops.
    const now = Date.now();
    if (now - this.lastDropLogMs < 1000) return;
    this.lastDropLogMs = now;
    const reason = 'audit buffer queue blocked';
    this.log(pluginErrorMessage('buffered', reason, events.map((e) => e.event)), new Error(reason));
  }

  private armTimer(): void {
    if (this.timer !== undefined || this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due = true;
      this.signal();
    }, this.options.maxBatchWaitMs);
    this.timer.unref();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private ready(): boolean {
    return this.queue.length >= this.options.maxBatchSize || (this.queue.length > 0 && (this.due || this.stopping)) || (this.stopping && this.queue.length === 0);
  }

  /** Takes batches as they become due and starts their delivery, a bounded number at once. */
  private async pump(): Promise<void> {
    for (;;) {
      while (!this.ready()) await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.queue.length === 0) break;
      this.due = false;
      const batch = this.queue.splice(0, this.options.maxBatchSize);
      if (this.queue.length === 0) {
        clearTimeout(this.timer);
        this.timer = undefined;
      } else this.armTimer();
      if (!this.stopping) await this.throttle?.take();
      while (this.inflight.size >= webhookSendsInFlightMax) await Promise.race(this.inflight);
      const sent: Promise<void> = this.deliver(batch).finally(() => this.inflight.delete(sent));
      this.inflight.add(sent);
    }
    await Promise.all(this.inflight);
  }
}
