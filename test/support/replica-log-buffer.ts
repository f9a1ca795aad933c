// Keeps the output lines of a test's replicas in memory, stamped with when they arrived, so a test
// that sees a request fail can show what the replicas said around that moment.
import type { ReplicaLineSink } from '../../internal/cluster/replica-process.ts';

/** One line a replica wrote. */
export interface ReplicaLine {
  readonly atMs: number;
  readonly replica: string;
  readonly line: string;
}

/** Lines kept at most (the oldest are dropped): a minute of a busy cluster's logs. */
const replicaLinesMax = 50_000;

/** A ReplicaLineSink that remembers lines (and echoes them when ORCH_TEST_LOGS is set). */
export class ReplicaLogBuffer implements ReplicaLineSink {
  private readonly lines: ReplicaLine[] = [];
  readonly onLine = (replica: string, _stream: 'stdout' | 'stderr', line: string): void => {
    if (process.env.ORCH_TEST_LOGS) process.stdout.write(`[${replica}] ${line}\n`);
    // The replica's own time stamp when the line has one (lines reach a busy test late).
    const stamped = /"time":"([^"]+)"/.exec(line)?.[1];
    const atMs = stamped === undefined ? Number.NaN : Date.parse(stamped);
    this.lines.push({ atMs: Number.isNaN(atMs) ? Date.now() : atMs, replica, line });
    if (this.lines.length > replicaLinesMax) this.lines.splice(0, this.lines.length - replicaLinesMax);
  };

  /** Lines written within `windowMs` of `atMs`, optionally only those matching `pattern`. */
  around(atMs: number, windowMs: number, pattern?: RegExp): ReplicaLine[] {
    return this.lines.filter((l) => Math.abs(l.atMs - atMs) <= windowMs && (pattern === undefined || pattern.test(l.line)));
  }

  /** The last `count` lines of `replica`, one string, for an error message. */
  tail(replica: string, count: number): string {
    return this.lines.filter((l) => l.replica === replica).slice(-count).map((l) => `[${replica}] ${l.line.slice(0, 400)}`).join('\n');
  }

  /** Lines matching `pattern`. */
  matching(pattern: RegExp): ReplicaLine[] {
    return this.lines.filter((l) => pattern.test(l.line));
  }
}

/** Runs `start`; when it throws, adds the last lines each of `replicas` wrote to the error (a cluster that never got ready says why). */
export async function withReplicaLogs<T>(logs: ReplicaLogBuffer, replicas: readonly string[], start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw new Error(`${String(error)}\n${replicas.map((r) => logs.tail(r, 8)).join('\n')}`, { cause: error });
  }
}
