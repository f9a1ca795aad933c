// The watch hub over a state machine: byte bounds, future start revisions, and snapshot restores.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AppliedState } from '../../../internal/storage/applied-state.ts';
import { encodeCommand, type Command } from '../../../internal/storage/commands.ts';
import { SqliteStateMachine } from '../../../internal/storage/sqlite-state-machine.ts';
import { revision } from '../../../internal/storage/storage.ts';
import { collect, eventRevision, rejectsWithCode } from './conformance-support.ts';

/** A command without the fields every command carries. */
type CommandBody = { [Op in Command['op']]: Omit<Extract<Command, { op: Op }>, 'requestId' | 'timestampMs'> }[Command['op']];

let counter = 0;
function write(state: AppliedState, command: CommandBody): void {
  counter += 1;
  const data = encodeCommand({ ...command, requestId: `t${counter}`, timestampMs: 0 } as Command);
  state.applyEntries([{ index: state.appliedIndex() + 1, data }]);
}

describe('watch hub', () => {
  it('closes a watcher with WatcherTooSlow when its queued bytes exceed the bound', async () => {
    const state = new AppliedState(SqliteStateMachine.open(':memory:'), { bytesMax: 1000 });
    try {
      const watcher = state.hub.watch({ prefix: '/', afterRevision: revision(0) });
      const iterator = watcher[Symbol.asyncIterator]();
      const first = iterator.next();
      write(state, { op: 'create', key: '/first', value: new Uint8Array(400) });
      assert.equal((await first).done, false);
      for (let i = 0; i < 5; i += 1) write(state, { op: 'create', key: `/k${i}`, value: new Uint8Array(400) });
      await rejectsWithCode(async () => {
        for (;;) if ((await iterator.next()).done === true) return;
      }, 'WatcherTooSlow');
      assert.equal(state.hub.size(), 0, 'the closed watcher left the hub');
    } finally {
      state.close();
    }
  });

  it('a watch after a revision not reached yet delivers only the changes beyond it', async () => {
    const state = new AppliedState(SqliteStateMachine.open(':memory:'));
    try {
      const watcher = state.hub.watch({ prefix: '/', afterRevision: revision(2) });
      const events = collect(watcher, (got) => got.length >= 1);
      for (let i = 0; i < 3; i += 1) write(state, { op: 'create', key: `/k${i}`, value: new Uint8Array(1) });
      assert.deepEqual((await events).map(eventRevision), [3]);
      watcher.stop();
    } finally {
      state.close();
    }
  });

  it('a watcher whose position was compacted away by a restored snapshot ends with Compacted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-hub-'));
    const source = new AppliedState(SqliteStateMachine.open(':memory:'));
    const target = new AppliedState(SqliteStateMachine.open(':memory:'));
    try {
      const watcher = target.hub.watch({ prefix: '/', afterRevision: revision(0) });
      const iterator = watcher[Symbol.asyncIterator]();
      const pending = iterator.next();
      for (let i = 0; i < 3; i += 1) write(source, { op: 'create', key: `/k${i}`, value: new Uint8Array(1) });
      write(source, { op: 'update', key: '/k0', value: new Uint8Array(2) });
      write(source, { op: 'compact', revision: 4 });
      await source.snapshotTo(join(dir, 'snap.db'));
      target.restoreFrom(join(dir, 'snap.db'));
      await rejectsWithCode(() => pending, 'Compacted');
    } finally {
      source.close();
      target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
