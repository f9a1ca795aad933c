// What the benchmarks read of a process from Linux's /proc: its memory (current and peak RSS, with
// the peak's reset) and its CPU time.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** One line of /proc/<pid>/status in bytes (VmRSS, VmHWM); null when the process is gone. */
export function procMemoryBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1]);
    return Number.isFinite(kib) ? kib * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets the process's peak RSS (VmHWM) to its current RSS; false when the kernel refused. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Linux's clock ticks per second (USER_HZ), which /proc/<pid>/stat counts CPU time in; 100 when getconf cannot tell. */
export function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/** A process's user + system CPU time so far, in ms (fields 14 and 15 of /proc/<pid>/stat); throws when it is gone. */
export function processCpuMs(pid: number, ticksPerSecond: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** What `work` added to a process's peak RSS: VmRSS before it (the peak reset to it), VmHWM after it. */
export interface PeakGrowth {
  readonly peakReset: boolean;
  readonly rssBeforeBytes: number | null;
  readonly peakBytes: number | null;
  /** peak - rss before: what the process took at most for `work`, beyond what it held. */
  readonly growthBytes: number | null;
}

/** Runs `work` between a reset of the process's peak RSS and a reading of it. */
export async function peakGrowthOver<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; growth: PeakGrowth }> {
  const peakReset = resetPeakRss(pid);
  const rssBeforeBytes = procMemoryBytes(pid, 'VmRSS');
  const value = await work();
  const peakBytes = procMemoryBytes(pid, 'VmHWM');
  return { value, growth: { peakReset, rssBeforeBytes, peakBytes, growthBytes: rssBeforeBytes === null || peakBytes === null ? null : peakBytes - rssBeforeBytes } };
}
