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
  for (const pid of ownChildPids()) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) killPid(pid);
    } catch {
      // the process exited while we looked
    }
  }
}

/** Pids of this process's children that have not exited (zombies left out), from /proc. */
export function ownChildPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The field after the parenthesised command is the state, then the parent pid.
      const [state, parentPid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parentPid) === process.pid && state !== 'Z') pids.push(Number(entry));
    } catch {
      // the process exited while we looked
    }
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
