// The commands of the replicated log and their results, as bytes. The object inside stays
// JSON bytes; msgpackr only frames the envelope (DEPENDENCIES.md).
import { randomBytes } from 'node:crypto';
import { Packr } from 'msgpackr';

/** Fields every command carries: a unique id for de-duplication and the proposer's clock for retention. */
interface CommandBase {
  /** Unique per proposal; a retry after a leader change reuses it so it applies at most once. */
  readonly requestId: string;
  /** The proposer's wall clock when proposing; stored per row so apply never reads the clock. */
  readonly timestampMs: number;
}

/** One entry of the replicated log, as applied by the state machine. */
export type Command =
  | (CommandBase & { readonly op: 'create'; readonly key: string; readonly value: Uint8Array })
  | (CommandBase & { readonly op: 'update'; readonly key: string; readonly value: Uint8Array; readonly expectedRevision?: number })
  | (CommandBase & { readonly op: 'delete'; readonly key: string; readonly expectedRevision?: number })
  | (CommandBase & { readonly op: 'compact'; readonly revision: number });

/** Error codes a command can end with at apply time (a result, never a throw). */
export type CommandFailureCode = 'KeyExists' | 'KeyNotFound' | 'Conflict' | 'RevisionTooLarge';

/**
 * The outcome of one applied command. For writes `revision` is the new revision; for a delete
 * `value` is the value it removed; for compact `revision` is the compacted revision.
 */
export type CommandResult =
  | { readonly ok: true; readonly revision: number; readonly createRevision: number; readonly value?: Uint8Array }
  | { readonly ok: false; readonly code: CommandFailureCode; readonly message: string; readonly currentRevision?: number };

const packr = new Packr({ useRecords: false, moreTypes: false });
const commandFormat = 1;

/** Encodes a command as log entry data (never empty, so it differs from a no-op entry). */
export function encodeCommand(command: Command): Uint8Array {
  return packr.pack({ f: commandFormat, ...command });
}

/** Decodes log entry data written by `encodeCommand`; throws (a bug or corrupt log) on anything else. */
export function decodeCommand(data: Uint8Array): Command {
  const raw: unknown = packr.unpack(data);
  if (typeof raw !== 'object' || raw === null) throw new Error('assert: command is not an object');
  const c = raw as Record<string, unknown>;
  if (c['f'] !== commandFormat) throw new Error(`assert: unknown command format ${String(c['f'])}`);
  assertString(c['requestId'], 'requestId');
  assertInteger(c['timestampMs'], 'timestampMs');
  switch (c['op']) {
    case 'create':
    case 'update':
      assertString(c['key'], 'key');
      if (!(c['value'] instanceof Uint8Array)) throw new Error('assert: command value is not bytes');
      if (c['expectedRevision'] !== undefined) assertInteger(c['expectedRevision'], 'expectedRevision');
      break;
    case 'delete':
      assertString(c['key'], 'key');
      if (c['expectedRevision'] !== undefined) assertInteger(c['expectedRevision'], 'expectedRevision');
      break;
    case 'compact':
      assertInteger(c['revision'], 'revision');
      break;
    default:
      throw new Error(`assert: unknown command op ${String(c['op'])}`);
  }
  return c as unknown as Command;
}

/** Encodes a command result (for the forwarding answer and the de-duplication table). */
export function encodeResult(result: CommandResult): Uint8Array {
  return packr.pack(result);
}

/** Decodes bytes written by `encodeResult`; throws on anything else. */
export function decodeResult(data: Uint8Array): CommandResult {
  const raw: unknown = packr.unpack(data);
  if (typeof raw !== 'object' || raw === null || typeof (raw as { ok?: unknown }).ok !== 'boolean') {
    throw new Error('assert: command result is not an object with ok');
  }
  return raw as CommandResult;
}

let requestCounter = 0;
/** 48 random bits drawn once per process: with the counter, ids stay unique across restarts without a random draw per write. */
const processNonce = randomBytes(6).toString('hex');

/** A request id unique across replicas and restarts: replica name, this process's random nonce and a counter. */
export function newRequestId(replicaName: string): string {
  requestCounter += 1;
  return `${replicaName}-${processNonce}-${requestCounter}`;
}

function assertString(v: unknown, name: string): asserts v is string {
  if (typeof v !== 'string') throw new Error(`assert: command ${name} is not a string`);
}

function assertInteger(v: unknown, name: string): asserts v is number {
  if (!Number.isSafeInteger(v)) throw new Error(`assert: command ${name} is not an integer`);
}
