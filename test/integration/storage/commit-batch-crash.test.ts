// A replica process SIGKILLed with applies in its open commit batch: the file holds the last
// committed batch, whole (rows and applied index together); re-applying the log from that index
// gives the state of a replica that never crashed; and a real replica, whose log snapshots compact,
// comes back with every write it acknowledged.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RaftStorage } from '../../../internal/storage/raft-storage.ts';
import { readAppliedIndex, SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import { freePorts } from '../../support/free-ports.ts';
import { forkEntryPoint } from '../../support/fork-entry-point.ts';
import { openSingleReplica } from '../../support/single-replica.ts';
import { creates } from '../../support/state-entries.ts';
import { eventually } from '../../unit/storage/conformance-support.ts';

/** A child that has not reported by then is killed, so that a hung one fails the test instead of hanging the run. */
const childDeadlineMs = 60_000;

/** Kills `proc` by its pid if it is still running after `childDeadlineMs`; returns the cancel. */
function watchdog(proc: ChildProcess): () => void {
  const timer = setTimeout(() => proc.kill('SIGKILL'), childDeadlineMs);
  return () => clearTimeout(timer);
}

function state(machine: SqliteStateMachine): string {
  return JSON.stringify({
    applied: machine.appliedIndex(),
    revision: machine.currentRevision(),
    items: machine.list({ prefix: '' }).items.map((kv) => [kv.key, kv.createRevision, kv.modRevision]),
  });
}

test('applies lost with a SIGKILLed process come back from the log, from the committed applied index', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-commit-crash-'));
  const path = join(dir, 'state.db');
  const [count, entriesMax] = [25, 10];
  const proc = forkEntryPoint('test/support/apply-until-killed.ts', [path, String(count), String(entriesMax)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const cancelWatchdog = watchdog(proc);
  try {
    const report = await new Promise<{ applied: number }>((resolve, reject) => {
      proc.once('message', (m) => resolve(m as { applied: number }));
      proc.once('exit', (code) => reject(new Error(`the child exited (${code}) before applying`)));
    });
    assert.equal(report.applied, count);
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;

    assert.equal(readAppliedIndex(path), 20, 'two full batches committed; the third was open');
    const restarted = SqliteStateMachine.open(path);
    assert.equal(restarted.appliedIndex(), 20);
    assert.equal(restarted.currentRevision(), 20, 'the rows committed with their applied index');
    restarted.applyEntries(creates(1, count)); // what the Raft driver hands over again: all from the log
    const neverCrashed = SqliteStateMachine.open(':memory:');
    neverCrashed.applyEntries(creates(1, count));
    assert.equal(state(restarted), state(neverCrashed));
    restarted.close();
    neverCrashed.close();
  } finally {
    cancelWatchdog();
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a replica SIGKILLed with an open commit batch, its log compacted behind snapshots, comes back with every acknowledged write', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-commit-crash-raft-'));
  const [dataDir, pkiDir] = [join(dir, 'n1'), join(dir, 'pki')];
  const [firstPort, secondPort] = await freePorts(2);
  const proc = forkEntryPoint('test/support/raft-store-until-killed.ts', [dataDir, pkiDir, String(firstPort), '100', '5'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const cancelWatchdog = watchdog(proc);
  let restarted: RaftStorage | null = null;
  try {
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => proc.once('exit', (_code, s) => resolve(s)));
    assert.equal(signal, 'SIGKILL', 'the child kills itself once its report is written');
    const report = JSON.parse(readFileSync(join(dataDir, 'report.json'), 'utf8')) as { revisions: Record<string, number>; applied: number; committed: number };
    assert.ok(report.committed < report.applied, `applies ${report.committed + 1}-${report.applied} were in the open batch`);

    restarted = await openSingleReplica({ dataDir, pkiDir, port: secondPort ?? 0, snapshotEveryEntries: 0 });
    const replica = restarted;
    const { firstIndex, snapshotIndex } = restarted.node.status();
    assert.ok(snapshotIndex > 0 && firstIndex > 1, `the log was cut behind snapshots (snapshot ${snapshotIndex}, first index ${firstIndex})`);
    assert.ok(snapshotIndex <= report.committed, 'no snapshot covers an apply the file had not committed');
    await eventually(() => replica.node.appliedIndex() >= report.applied, `re-applying up to ${report.applied}`, 30_000);
    const keys = Object.keys(report.revisions);
    assert.ok(keys.length >= 100);
    for (const key of keys) assert.equal((await restarted.storage.get(key, { consistency: 'local' }))?.modRevision, report.revisions[key], key);
  } finally {
    cancelWatchdog();
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await restarted?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
