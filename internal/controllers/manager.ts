import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Gauge, type Registry } from 'prom-client';
import type { Controller } from './controller.ts';
import { controllerStopWaitMs, leadershipPollMs, restartBackoffMsMax, restartBackoffMsMin } from './limits.ts';

/** How many listeners one controller may hold on the session's signal at once before node warns. */
const listenersPerController = 8;

/** Options of a controller manager. */
export interface ControllerManagerOptions {
  readonly controllers: readonly Controller[];
  /** Whether this replica leads now (the Raft node's view); polled. */
  readonly isLeader: () => boolean;
  readonly log: (message: string, err?: unknown) => void;
  readonly pollIntervalMs?: number;
  readonly restartBackoffMs?: { readonly min: number; readonly max: number };
  /** Where the `orch_controllers_running{controller}` gauge goes (1 while a controller runs here). */
  readonly metricsRegistry?: Registry;
}

interface Session {
  readonly abort: AbortController;
  readonly done: Promise<void>;
}

/** Waits `ms`, or less when `signal` aborts first (never rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * Runs controllers on the Raft leader only. While this replica leads, every controller runs with
 * the session's AbortSignal; one that throws (or returns early) is logged and restarted with
 * exponential backoff. Losing leadership or stop() aborts the session and waits (bounded) for the
 * controllers to return; a new session starts only after the previous one has ended.
 */
export class ControllerManager {
  private readonly pollMs: number;
  private readonly backoff: { readonly min: number; readonly max: number };
  private readonly gauge: Gauge | undefined;
  private readonly active = new Set<string>();
  private session: Session | undefined;
  private ending: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: ControllerManagerOptions) {
    this.pollMs = options.pollIntervalMs ?? leadershipPollMs;
    this.backoff = options.restartBackoffMs ?? { min: restartBackoffMsMin, max: restartBackoffMsMax };
    const names = options.controllers.map((c) => c.name);
    if (new Set(names).size !== names.length) throw new Error(`assert: controller names must be unique: ${names.join(', ')}`);
    if (options.metricsRegistry) {
      this.gauge = new Gauge({ name: 'orch_controllers_running', help: 'Whether the controller runs on this replica (1 on the leader only).', labelNames: ['controller'], registers: [options.metricsRegistry] });
      for (const name of names) this.gauge.set({ controller: name }, 0);
    }
  }

  /** Starts watching leadership (and starts the controllers at once when leading). Idempotent. */
  start(): void {
    if (this.stopped || this.timer !== undefined) return;
    this.timer = setInterval(() => this.check(), this.pollMs);
    this.timer.unref();
    this.check();
  }

  /** Stops for good: no new session, the running one aborted and awaited (bounded). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.endSession();
    await this.ending;
  }

  /** Names of the controllers running now (their run() has not returned). */
  running(): string[] {
    return [...this.active].sort();
  }

  private check(): void {
    if (this.stopped || this.ending !== undefined) return;
    const leader = this.options.isLeader();
    if (leader && this.session === undefined) this.startSession();
    else if (!leader && this.session !== undefined) this.endSession();
  }

  private startSession(): void {
    const abort = new AbortController();
    // Every controller listens on the session's signal a few times at once (its sleeps, its
    // watches): node's default of 10 listeners would warn of a leak that is not one.
    setMaxListeners(this.options.controllers.length * listenersPerController, abort.signal);
    this.options.log(`controllers: leading, starting ${this.options.controllers.map((c) => c.name).join(', ')}`);
    const done = Promise.all(this.options.controllers.map((c) => this.supervise(c, abort.signal))).then(() => undefined);
    this.session = { abort, done };
  }

  private endSession(): void {
    const session = this.session;
    if (session === undefined) return;
    this.session = undefined;
    if (!this.stopped) this.options.log('controllers: no longer leading, stopping them');
    session.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.options.log(`controllers: still running ${controllerStopWaitMs} ms after abort: ${this.running().join(', ')}`);
        resolve();
      }, controllerStopWaitMs);
    });
    this.ending = Promise.race([session.done, bounded]).then(() => {
      clearTimeout(timer);
      this.ending = undefined;
    });
  }

  /** Runs one controller until `signal` aborts, restarting it with backoff when it fails. */
  private async supervise(controller: Controller, signal: AbortSignal): Promise<void> {
    let delayMs = this.backoff.min;
    while (!signal.aborted) {
      // Leadership may have gone since the last poll: never (re)start on a follower.
      if (!this.options.isLeader()) {
        await sleep(this.pollMs, signal);
        continue;
      }
      const startedAt = Date.now();
      this.setRunning(controller.name, true);
      try {
        await controller.run(signal);
        if (!signal.aborted) this.options.log(`controller ${controller.name} returned while leading; restarting`);
      } catch (err) {
        if (!signal.aborted) this.options.log(`controller ${controller.name} failed; restarting in ${delayMs} ms`, err);
      } finally {
        this.setRunning(controller.name, false);
      }
      if (signal.aborted) return;
      // A run that lasted a while was healthy: start the backoff over.
      if (Date.now() - startedAt > this.backoff.max) delayMs = this.backoff.min;
      await sleep(delayMs, signal);
      delayMs = Math.min(delayMs * 2, this.backoff.max);
    }
  }

  private setRunning(name: string, running: boolean): void {
    if (running) this.active.add(name);
    else this.active.delete(name);
    this.gauge?.set({ controller: name }, running ? 1 : 0);
  }
}
