// Applying one command to the revision log. Deterministic: it reads only the database and the
// command (never the clock), and a failed precondition is a result, not a throw.
import type { Command, CommandResult } from './commands.ts';
import type { ChangeEvent } from './change-event.ts';
import type { KvRow, Statements } from './state-schema.ts';
import { rowToKeyValue } from './state-reads.ts';
import { revision } from './storage.ts';

/** The counters a batch of applies advances; written to `meta` once per batch. */
export interface ApplyCounters {
  revision: number;
  compactedRevision: number;
}

/** What one command did: its result and the change it made, if any. */
export interface CommandOutcome {
  readonly result: CommandResult;
  readonly event: ChangeEvent | null;
}

const emptyValue = Buffer.alloc(0);

/** Applies one command inside the caller's transaction, advancing `counters` on success. */
export function applyCommand(st: Statements, counters: ApplyCounters, command: Command): CommandOutcome {
  switch (command.op) {
    case 'create':
      return applyCreate(st, counters, command.key, toBuffer(command.value), command.timestampMs);
    case 'update':
    case 'delete': {
      const current = st.latestRow.get(command.key);
      if (current === undefined) return failure('KeyNotFound', `key ${command.key} not found`);
      if (command.expectedRevision !== undefined && command.expectedRevision !== current.rev) {
        return failure('Conflict', `key ${command.key} is at revision ${current.rev}, not ${command.expectedRevision}`, current.rev);
      }
      return command.op === 'update'
        ? applyUpdate(st, counters, current, toBuffer(command.value), command.timestampMs)
        : applyDelete(st, counters, current, command.timestampMs);
    }
    case 'compact':
      return applyCompact(st, counters, command.revision);
  }
}

function applyCreate(st: Statements, counters: ApplyCounters, key: string, value: Buffer, ts: number): CommandOutcome {
  const current = st.latestRow.get(key);
  if (current !== undefined) return failure('KeyExists', `key ${key} already exists`, current.rev);
  const rev = counters.revision + 1;
  st.insertRow.run(rev, key, rev, 0, 0, value, ts);
  st.setLatest.run(key, rev);
  counters.revision = rev;
  return {
    result: { ok: true, revision: rev, createRevision: rev },
    event: { type: 'create', kv: { key, value, createRevision: revision(rev), modRevision: revision(rev) } },
  };
}

function applyUpdate(st: Statements, counters: ApplyCounters, current: KvRow, value: Buffer, ts: number): CommandOutcome {
  const rev = counters.revision + 1;
  st.insertRow.run(rev, current.key, current.create_rev, current.rev, 0, value, ts);
  st.setLatest.run(current.key, rev);
  counters.revision = rev;
  const prevKv = rowToKeyValue(current);
  return {
    result: { ok: true, revision: rev, createRevision: current.create_rev },
    event: { type: 'update', kv: { ...prevKv, value, modRevision: revision(rev) }, prevKv },
  };
}

function applyDelete(st: Statements, counters: ApplyCounters, current: KvRow, ts: number): CommandOutcome {
  const rev = counters.revision + 1;
  st.insertRow.run(rev, current.key, current.create_rev, current.rev, 1, emptyValue, ts);
  st.deleteLatest.run(current.key);
  counters.revision = rev;
  const prevKv = rowToKeyValue(current);
  return {
    result: { ok: true, revision: rev, createRevision: current.create_rev, value: current.value },
    event: { type: 'delete', kv: { ...prevKv, modRevision: revision(rev) }, prevKv },
  };
}

function applyCompact(st: Statements, counters: ApplyCounters, rev: number): CommandOutcome {
  if (rev > counters.revision) {
    return failure('RevisionTooLarge', `cannot compact to ${rev} beyond the current revision ${counters.revision}`, counters.revision);
  }
  if (rev > counters.compactedRevision) {
    st.compact.run({ c: rev });
    counters.compactedRevision = rev;
  }
  return { result: { ok: true, revision: counters.compactedRevision, createRevision: 0 }, event: null };
}

function failure(code: 'KeyExists' | 'KeyNotFound' | 'Conflict' | 'RevisionTooLarge', message: string, currentRevision?: number): CommandOutcome {
  return { result: currentRevision === undefined ? { ok: false, code, message } : { ok: false, code, message, currentRevision }, event: null };
}

/** Views bytes as a Buffer without copying (better-sqlite3 binds Buffers as BLOBs). */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
