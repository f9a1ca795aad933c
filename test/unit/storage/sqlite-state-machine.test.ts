// The SQLite state machine on its own: deterministic batches, no-op entries, replays, request
// de-duplication, snapshots.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { encodeCommand, type Command } from '../../../internal/storage/commands.ts';
import { SqliteStateMachine, type LogEntry } from '../../../internal/storage/sqlite-state-machine.ts';
import { requestIdWindowEntries, requestPruneEveryEntries } from '../../../internal/storage/limits.ts';

const value = (s: string): Uint8Array => new TextEncoder().encode(s);

function entries(commands: Command[], firstIndex = 1): LogEntry[] {
  return commands.map((command, i) => ({ index: firstIndex + i, data: encodeCommand(command) }));
}

function sampleLog(): LogEntry[] {
  const c = (n: number, rest: Partial<Command> & Pick<Command, 'op'>): Command => ({ requestId: `r${n}`, timestampMs: 1000 + n, ...rest }) as Command;
  const commands: Command[] = [
    c(1, { op: 'create', key: '/a', value: value('a1') }),
    c(2, { op: 'create', key: '/b', value: value('b1') }),
    c(3, { op: 'update', key: '/a', value: value('a2'), expectedRevision: 1 }),
    c(4, { op: 'update', key: '/a', value: value('stale'), expectedRevision: 1 }),
    c(5, { op: 'delete', key: '/b' }),
    c(6, { op: 'create', key: '/a', value: value('exists') }),
    c(7, { op: 'compact', revision: 3 }),
    c(8, { op: 'create', key: '/c', value: value('c1') }),
  ];
  const log = entries(commands);
  log.splice(2, 0, { index: 0, data: new Uint8Array() }); // a leader's empty entry
  return log.map((entry, i) => ({ index: i + 1, data: entry.data }));
}

function dump(machine: SqliteStateMachine): string {
  const list = machine.list({ prefix: '' });
  return JSON.stringify({
    applied: machine.appliedIndex(),
    revision: machine.currentRevision(),
    compacted: machine.compactedRevision(),
    items: list.items.map((kv) => [kv.key, Buffer.from(kv.value).toString(), kv.createRevision, kv.modRevision]),
    history: machine.history(machine.compactedRevision(), '', 1000).map((e) => [e.type, e.kv.key, e.kv.modRevision]),
  });
}

describe('sqlite state machine', () => {
  it('applies the same log to the same state whether in one batch or entry by entry', () => {
    const whole = SqliteStateMachine.open(':memory:');
    const piecewise = SqliteStateMachine.open(':memory:');
    const log = sampleLog();
    const outcome = whole.applyEntries(log);
    for (const entry of log) piecewise.applyEntries([entry]);
    assert.equal(dump(piecewise), dump(whole));
    assert.deepEqual(outcome.applied.map((a) => (a.result.ok ? `ok@${a.result.revision}` : a.result.code)), [
      'ok@1', 'ok@2', 'ok@3', 'Conflict', 'ok@4', 'KeyExists', 'ok@3', 'ok@5',
    ]);
    assert.deepEqual(outcome.events.map((e) => e.type), ['create', 'create', 'update', 'delete', 'create']);
    assert.equal(whole.appliedIndex(), 9, 'the empty entry advanced the applied index too');
    whole.close();
    piecewise.close();
  });

  it('skips entries it already applied, so a replay after restart changes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-sm-'));
    try {
      const log = sampleLog();
      let machine = SqliteStateMachine.open(join(dir, 'state.db'));
      machine.applyEntries(log.slice(0, 5));
      const before = dump(machine);
      machine.close();
      machine = SqliteStateMachine.open(join(dir, 'state.db'));
      assert.equal(dump(machine), before);
      machine.applyEntries(log); // the driver replays from an older index
      const reference = SqliteStateMachine.open(':memory:');
      reference.applyEntries(log);
      assert.equal(dump(machine), dump(reference));
      machine.close();
      reference.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a retried request id with the original result without applying it again', () => {
    const machine = SqliteStateMachine.open(':memory:');
    const create: Command = { op: 'create', requestId: 'same', timestampMs: 1, key: '/k', value: value('x') };
    const first = machine.applyEntries(entries([create]));
    const retry = machine.applyEntries(entries([create], 2));
    assert.deepEqual(retry.applied[0]?.result, first.applied[0]?.result);
    assert.equal(retry.applied[0]?.duplicate, true);
    assert.deepEqual(retry.events, []);
    assert.equal(machine.currentRevision(), 1);
    machine.close();
  });

  it('treats a retry as a duplicate for the window of entries after the original, and as new past it', () => {
    const create = (requestId: string): Command => ({ op: 'create', requestId, timestampMs: 1, key: `/${requestId}`, value: value('x') });
    const machine = SqliteStateMachine.open(':memory:');
    machine.applyEntries(entries([create('a'), create('b')]));
    const [last] = machine.applyEntries([{ index: 1 + requestIdWindowEntries, data: encodeCommand(create('a')) }]).applied;
    assert.equal(last?.duplicate, true, 'a retry the window after its original is a duplicate');
    const [past] = machine.applyEntries([{ index: 3 + requestIdWindowEntries, data: encodeCommand(create('b')) }]).applied;
    assert.equal(past?.duplicate, false, 'a retry one entry past the window applies again');
    assert.deepEqual(past?.result, { ok: false, code: 'KeyExists', message: 'key /b already exists', currentRevision: 2 });
    machine.close();
  });

  it('forgets the rows of request ids older than the window once the applied index crosses a pruning period', () => {
    const machine = SqliteStateMachine.open(':memory:');
    machine.applyEntries(entries([{ op: 'create', requestId: 'old', timestampMs: 1, key: '/k', value: value('x') }]));
    machine.applyEntries([{ index: requestIdWindowEntries, data: new Uint8Array() }]);
    const nextPeriod = (Math.floor(requestIdWindowEntries / requestPruneEveryEntries) + 1) * requestPruneEveryEntries;
    machine.applyEntries([{ index: nextPeriod - 1, data: new Uint8Array() }]);
    assert.notEqual(machine.resultOf('old'), null, 'out of the window, its row is kept until the next period starts');
    machine.applyEntries([{ index: nextPeriod, data: new Uint8Array() }]);
    assert.equal(machine.resultOf('old'), null);
    machine.close();
  });

  it('decides whether a retry is a duplicate by entry distance alone, so replicas that batch the log differently agree', () => {
    const update = (requestId: string, text: string): Command => ({ op: 'update', requestId, timestampMs: 2, key: '/k', value: value(text) });
    const head = entries([{ op: 'create', requestId: 'c', timestampMs: 1, key: '/k', value: value('v1') }, update('u', 'v2')]);
    // The retry of 'u' comes one entry past the window; a no-op just before it.
    const noop = { index: 2 + requestIdWindowEntries, data: new Uint8Array() };
    const retry = { index: 3 + requestIdWindowEntries, data: encodeCommand(update('u', 'v3')) };
    const apart = SqliteStateMachine.open(':memory:');
    apart.applyEntries(head);
    apart.applyEntries([noop]); // this batch's end prunes 'u' before the retry
    apart.applyEntries([retry]);
    const together = SqliteStateMachine.open(':memory:');
    together.applyEntries(head);
    const [outcome] = together.applyEntries([noop, retry]).applied; // here 'u' is still stored at the retry
    assert.equal(outcome?.duplicate, false, 'a request older than the window is applied again');
    assert.equal(dump(together), dump(apart));
    assert.equal(together.currentRevision(), 3);
    apart.close();
    together.close();
  });

  it('rejects entries whose index goes backwards within a batch', () => {
    const machine = SqliteStateMachine.open(':memory:');
    const noop = new Uint8Array();
    assert.throws(() => machine.applyEntries([{ index: 3, data: noop }, { index: 2, data: noop }]), /assert/);
    assert.equal(machine.appliedIndex(), 0, 'the failed batch left nothing behind');
    machine.close();
  });

  it('refuses a restore while a snapshot copy of the database is still running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-sm-copy-'));
    try {
      const machine = SqliteStateMachine.open(join(dir, 'live.db'));
      machine.applyEntries(sampleLog());
      const first = await machine.snapshotTo(join(dir, 'first.db'));
      const copying = machine.snapshotTo(join(dir, 'second.db'));
      assert.throws(() => machine.restoreFrom(join(dir, 'first.db')), /restore while a snapshot copy/);
      assert.equal((await copying).appliedIndex, first.appliedIndex);
      machine.restoreFrom(join(dir, 'first.db'));
      assert.equal(machine.appliedIndex(), first.appliedIndex);
      machine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('restores a snapshot into a file or an in-memory database with the applied index it covers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-sm-snap-'));
    try {
      const source = SqliteStateMachine.open(join(dir, 'source.db'));
      source.applyEntries(sampleLog());
      const { appliedIndex } = await source.snapshotTo(join(dir, 'snap.db'));
      assert.equal(appliedIndex, source.appliedIndex());
      for (const path of [join(dir, 'target.db'), ':memory:']) {
        const target = SqliteStateMachine.open(path);
        target.applyEntries(entries([{ op: 'create', requestId: 'other', timestampMs: 1, key: '/z', value: value('z') }]));
        target.restoreFrom(join(dir, 'snap.db'));
        assert.equal(dump(target), dump(source));
        target.close();
      }
      source.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
