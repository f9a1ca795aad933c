// Kills every process the benchmark started, whatever way the run ends (normal end, error,
// Ctrl-C, watchdog). Cleanups are synchronous so they also run inside process 'exit'.
import { readdirSync, readFileSync } from 'node:fs';

const cleanups = new Set<() => void>();
let installed = false;

/** Registers a synchronous cleanup (e.g. SIGKILL of known pids); returns its removal. */
export function onCleanup(cleanup: () => void): () => void {
  installHandlers();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every registered cleanup once, ignoring their errors (best effort at the end of a run). */
export function runCleanups(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // a process that already exited is fine
    }
  }
}

/** Sends SIGKILL to a pid, ignoring a process that is already gone. */
export function killPid(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * SIGKILLs our own child processes (parent pid = this process) whose command line contains
 * `marker` (a unique data directory): covers processes started by code that has not yet handed
 * them back, e.g. replicas of a cluster still waiting to become ready.
 */
export function killChildrenMentioning(marker: string): void {
  for (const pid of childPidsOf()) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) killPid(pid);
    } catch {
      // the process exited while we looked
    }
  }
}

/** A process's state letter and parent pid from /proc, or null once it is gone. */
function processStat(pid: number): { state: string; parent: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The field after the parenthesised command is the state, then the parent pid.
    const [state = '', parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, parent: Number(parent) };
  } catch {
    return null; // the process exited while we looked
  }
}

/** Whether `pid` is a process that has not exited (a zombie has). */
export function isRunning(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== null && stat.state !== 'Z';
}

/** Pids of the children of `parent` (this process by default) that have not exited (zombies left out), from /proc. */
export function childPidsOf(parent: number = process.pid): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(Number(entry));
    if (stat !== null && stat.parent === parent && stat.state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}

function installHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runCleanups);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      runCleanups();
      process.exit(130);
    });
  }
}
