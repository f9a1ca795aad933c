// API Priority and Fairness on one replica (kube's apf_controller and apf_filter): the compiled
// configuration classifies a request into a FlowSchema and a priority level; an exempt level runs
// it at once, a limited one admits it through the level's queue set (fair queuing over
// shuffle-sharded queues, seats), or refuses it. A new configuration (the objects changed) keeps
// each level's queue set and its waiting requests, with the new limits; a level that disappears
// lets its requests finish on the queue set they hold.
import type { Cancellation } from './cancellation.ts';
import { BoundedCache } from '../bounded-cache.ts';
import type { Configuration } from './configuration.ts';
import type { FlowControlMetrics } from './metrics.ts';
import { QueueSet, type Admitted, type Rejected } from './queue-set.ts';
import { flowHash } from './shuffle-shard.ts';
import type { Classification, PriorityLevel, RequestDigest } from './types.ts';

/** Why a request was refused (the `reason` label of apiserver_flowcontrol_rejected_requests_total). */
export type RefusalReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** A request let through: it runs, then calls `release` once (idempotent). */
export interface Dispatched {
  readonly outcome: 'dispatched';
  readonly classification: Classification;
  release(): void;
}

/** A request refused: answered 429 (or not at all when cancelled: its client left). */
export interface Refused {
  readonly outcome: 'rejected';
  readonly classification: Classification;
  readonly reason: RefusalReason;
}

/** One priority level's runtime state. */
interface LevelState {
  level: PriorityLevel;
  /** null for an exempt level. */
  readonly queues: QueueSet | null;
  executing: number;
}

/** What a priority level reports (the debug dump, metrics). */
export interface LevelReport {
  readonly level: PriorityLevel;
  readonly queues: ReturnType<QueueSet['stats']> | null;
  readonly executing: number;
}

/** How many flows' hashes a replica remembers (SHA-256 once per flow, not per request). */
const flowHashCacheLimit = 4096;

/** A replica's flow control: classification and admission. */
export class FlowControl {
  private configuration: Configuration;
  private readonly levels = new Map<string, LevelState>();
  private readonly flowHashes = new BoundedCache<bigint>(flowHashCacheLimit);

  constructor(
    configuration: Configuration,
    private readonly options: {
      /** How long a request may wait in a queue (kube: a quarter of the request timeout, 15 s). */
      readonly requestWaitLimitMs: number;
      readonly metrics?: FlowControlMetrics;
    },
  ) {
    this.configuration = configuration;
    this.configure(configuration);
  }

  /** The configuration in force. */
  current(): Configuration {
    return this.configuration;
  }

  /** Puts a new configuration in force: levels keep their queue sets, with the new limits. */
  configure(configuration: Configuration): void {
    this.configuration = configuration;
    const names = new Set<string>();
    for (const level of configuration.priorityLevels.values()) {
      names.add(level.name);
      const state = this.levels.get(level.name);
      const limits = { concurrencyLimit: level.concurrencyLimit, queuing: level.queuing };
      if (state !== undefined && (state.queues === null) === level.exempt) {
        state.level = level;
        state.queues?.setConfig(limits);
      } else this.levels.set(level.name, { level, queues: level.exempt ? null : new QueueSet(limits), executing: 0 });
      this.options.metrics?.nominalLimitSeats.set({ priority_level: level.name }, level.exempt ? 0 : level.concurrencyLimit);
    }
    for (const name of [...this.levels.keys()]) {
      if (names.has(name)) continue;
      this.levels.delete(name); // its requests still hold (and release) their queue set
      this.options.metrics?.nominalLimitSeats.remove({ priority_level: name });
    }
  }

  /** The request's schema, level and flow. */
  classify(digest: RequestDigest): Classification {
    return this.configuration.classify(digest);
  }

  /**
   * Admits a classified request occupying `seats`: at once on an exempt level, else through its
   * level's queues (waiting at most requestWaitLimitMs, or until `signal` aborts).
   */
  async admit(classification: Classification, seats: number, signal?: Cancellation): Promise<Dispatched | Refused> {
    const labels = { flow_schema: classification.flowSchema.name, priority_level: classification.priorityLevel.name };
    const metrics = this.options.metrics;
    const state = this.levels.get(classification.priorityLevel.name);
    if (state === undefined || state.queues === null) {
      // An exempt level (or one replaced meanwhile: let it through rather than refuse on a race).
      metrics?.waitDuration.observe({ ...labels, execute: 'true' }, 0);
      return this.started(classification, state, seats, () => undefined);
    }
    const request = { flowHash: this.flowHashOf(classification), seats, waitLimitMs: this.options.requestWaitLimitMs, ...(signal ? { signal } : {}) };
    const started = performance.now();
    // Most requests find their seats free and nothing waiting: decided at once, never in a queue.
    let outcome: Admitted | Rejected | null = state.queues.tryAdmit(request);
    if (outcome === null) {
      metrics?.inQueue.inc(labels);
      outcome = await state.queues.enqueue(request);
      metrics?.inQueue.dec(labels);
    }
    metrics?.waitDuration.observe({ ...labels, execute: String(outcome.outcome === 'dispatched') }, (performance.now() - started) / 1000);
    if (outcome.outcome === 'rejected') {
      metrics?.rejected.inc({ ...labels, reason: outcome.reason });
      return { outcome: 'rejected', classification, reason: outcome.reason };
    }
    const admitted = outcome;
    return this.started(classification, state, seats, () => admitted.release());
  }

  private flowHashOf(classification: Classification): bigint {
    const { flowSchema, flowDistinguisher } = classification;
    return this.flowHashes.get(`${flowSchema.name}\u0000${flowDistinguisher}`, () => flowHash(flowSchema.name, flowDistinguisher));
  }

  private started(classification: Classification, state: LevelState | undefined, seats: number, free: () => void): Dispatched {
    const labels = { flow_schema: classification.flowSchema.name, priority_level: classification.priorityLevel.name };
    const metrics = this.options.metrics;
    metrics?.dispatched.inc(labels);
    metrics?.executing.inc(labels);
    metrics?.executingSeats.inc(labels, seats);
    if (state !== undefined) state.executing++;
    let released = false;
    return {
      outcome: 'dispatched',
      classification,
      release: () => {
        if (released) return;
        released = true;
        if (state !== undefined) state.executing--;
        metrics?.executing.dec(labels);
        metrics?.executingSeats.dec(labels, seats);
        free();
      },
    };
  }

  /** Every level's state, by name. */
  report(): LevelReport[] {
    return [...this.levels.values()].sort((a, b) => a.level.name.localeCompare(b.level.name)).map((s) => ({ level: s.level, queues: s.queues?.stats() ?? null, executing: s.executing }));
  }
}
