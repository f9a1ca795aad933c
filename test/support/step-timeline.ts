// The steps of an operations test with their times, so that a failed request can be placed: which
// step it happened in, and which replica its connection went to.
import type { FailedWrite } from './write-load.ts';

/** One step and when it began. */
interface Step {
  readonly label: string;
  readonly atMs: number;
}

/** Steps in the order they began. */
export class StepTimeline {
  private readonly steps: Step[] = [{ label: 'start', atMs: Date.now() }];

  /** Marks the beginning of a step. */
  begin(label: string): void {
    this.steps.push({ label, atMs: Date.now() });
  }

  /** Each step with how long it took (until the next began, or now). */
  durations(): string {
    return this.steps.map((s, i) => `${s.label} ${((this.steps[i + 1]?.atMs ?? Date.now()) - s.atMs)} ms`).join(', ');
  }

  /** The step running at `atMs`, and how far into it. */
  stepAt(atMs: number): string {
    const step = [...this.steps].reverse().find((s) => s.atMs <= atMs) ?? this.steps[0];
    return `${step?.label ?? '?'} +${atMs - (step?.atMs ?? atMs)} ms`;
  }

  /** One line per failure: its step, the replica its broken connection went to (by API port), the error. */
  describe(failures: readonly FailedWrite[], replicaOfPort: ReadonlyMap<number, string>): string {
    return failures.map((f) => {
      const port = /connection to port (\d+)/.exec(f.error)?.[1];
      const replica = port === undefined ? '' : ` on ${replicaOfPort.get(Number(port)) ?? `port ${port}`}`;
      return `[${this.stepAt(f.atMs)}] ${f.operation} ${f.name} (${f.outcome})${replica}: ${f.error}`;
    }).join('\n');
  }
}
