// A replica process SIGKILLed with applies in its open commit batch: the file holds the last
// committed batch, whole (rows and applied index together), and re-applying the log from that index
// gives the state of a replica that never crashed.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import { creates } from '../../support/state-entries.ts';

const child = fileURLToPath(new URL('../../support/apply-until-killed.ts', import.meta.url));

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
  const proc = fork(child, [path, String(count), String(entriesMax)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const report = await new Promise<{ applied: number }>((resolve, reject) => {
      proc.once('message', (m) => resolve(m as { applied: number }));
      proc.once('exit', (code) => reject(new Error(`the child exited (${code}) before applying`)));
    });
    assert.equal(report.applied, count);
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;

    const restarted = SqliteStateMachine.open(path);
    assert.equal(restarted.appliedIndex(), 20, 'two full batches committed; the third was open');
    assert.equal(restarted.currentRevision(), 20, 'the rows committed with their applied index');
    restarted.applyEntries(creates(1, count)); // what the Raft driver hands over again: all from the log
    const neverCrashed = SqliteStateMachine.open(':memory:');
    neverCrashed.applyEntries(creates(1, count));
    assert.equal(state(restarted), state(neverCrashed));
    restarted.close();
    neverCrashed.close();
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
