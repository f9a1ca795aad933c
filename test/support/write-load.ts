// Continuous writes for operations tests: concurrent writers create ConfigMaps and update each a
// few times (compare-and-swap PUTs) through one load-balancing OrchClient, recording what was
// acknowledged and every request that failed, with enough detail to find the cause in the logs.
import { setTimeout as sleep } from 'node:timers/promises';
import type { OrchClient } from '../../internal/client/client.ts';
import { ApiError, UnavailableError, UnknownOutcomeError } from '../../internal/client/errors.ts';

/** The newest write of one object the server acknowledged. */
export interface AcknowledgedWrite {
  readonly name: string;
  readonly resourceVersion: number;
  readonly value: string;
}

/** A write that did not succeed, and what the client knows about its outcome. */
export interface FailedWrite {
  readonly name: string;
  readonly operation: 'create' | 'update';
  /** The value the failed request carried (it may be stored when the outcome is unknown). */
  readonly value: string;
  /** When it failed (ms since the epoch), to match against replica logs. */
  readonly atMs: number;
  /** unknown: may have applied; not-applied: the client promises it did not; refused: the server answered an error. */
  readonly outcome: 'unknown' | 'not-applied' | 'refused';
  /** The error's name, message and cause chain, in one line. */
  readonly error: string;
}

/** What a write load did, once stopped. */
export interface WriteLoadResult {
  /** name -> its newest acknowledged write. */
  readonly acknowledged: ReadonlyMap<string, AcknowledgedWrite>;
  readonly failures: readonly FailedWrite[];
  /** Requests sent (creates and updates, acknowledged or not). */
  readonly attempted: number;
}

/** How a write load writes. */
export interface WriteLoadOptions {
  readonly client: OrchClient;
  readonly writers: number;
  /** Every object gets this label (test=<label>) and a name starting with it. */
  readonly label: string;
  /** Updates of each object after its create, before the writer moves on to a new one. */
  readonly updatesPerObject: number;
  readonly namespace?: string;
  /** Pause of each writer between two requests (keeps 2 cores from drowning). */
  readonly pauseMs?: number;
}

/** Objects whose final state can only be one of these: the acknowledged write or a failed write with an unknown outcome after it. */
interface ObjectHistory {
  acknowledged: AcknowledgedWrite | null;
  /** Values sent after the acknowledged one whose outcome is unknown. */
  readonly uncertain: string[];
}

const writeLoadErrorDepthMax = 5;

/** What undici's SocketError says of the connection that broke. */
interface SocketInfo {
  readonly remotePort?: number;
  readonly bytesWritten?: number;
  readonly bytesRead?: number;
}

function describeSocket(socket: SocketInfo | undefined): string {
  if (socket === undefined) return '';
  return ` (connection to port ${String(socket.remotePort)}, ${String(socket.bytesWritten)} bytes written, ${String(socket.bytesRead)} read)`;
}

/** One line describing an error and its causes. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < writeLoadErrorDepthMax && current !== undefined && current !== null; depth += 1) {
    const e = current as { name?: string; message?: string; code?: unknown; status?: unknown; endpoint?: unknown; cause?: unknown; socket?: SocketInfo };
    parts.push(`${e.name ?? 'Error'}${e.code === undefined ? '' : `[${String(e.code)}]`}${e.status === undefined ? '' : ` ${String(e.status)}`}${e.endpoint === undefined ? '' : ` from ${String(e.endpoint)}`}: ${e.message ?? String(current)}${describeSocket(e.socket)}`);
    current = e.cause;
  }
  return parts.join(' <- ');
}

function outcomeOf(error: unknown): FailedWrite['outcome'] {
  if (error instanceof UnknownOutcomeError) return 'unknown';
  if (error instanceof UnavailableError) return 'not-applied';
  if (error instanceof ApiError) return 'refused';
  return 'unknown';
}

/**
 * Writers running until `stop()`: each creates an object, updates it `updatesPerObject` times with
 * a compare-and-swap on the acknowledged resourceVersion, then moves on; after a failure it moves
 * on at once (the object's state is then pinned by the failure's outcome).
 */
export class WriteLoad {
  private readonly histories = new Map<string, ObjectHistory>();
  private readonly failed: FailedWrite[] = [];
  private attempted = 0;
  /** Requests acknowledged, creates and updates alike. */
  private succeeded = 0;
  private stopping = false;
  private readonly running: Promise<void>[];
  private readonly path: string;

  constructor(private readonly options: WriteLoadOptions) {
    this.path = `/api/v1/namespaces/${options.namespace ?? 'default'}/configmaps`;
    this.running = Array.from({ length: options.writers }, (_, w) => this.writer(w));
  }

  /** Acknowledged writes so far (newest per object). */
  acknowledgedCount(): number {
    let count = 0;
    for (const h of this.histories.values()) if (h.acknowledged !== null) count += 1;
    return count;
  }

  /** Failures so far. */
  failures(): readonly FailedWrite[] {
    return this.failed;
  }

  /** Waits until at least `count` more requests were acknowledged (or `timeoutMs` passed). */
  async waitForProgress(count: number, timeoutMs = 20_000): Promise<void> {
    const target = this.succeeded + count;
    const deadline = Date.now() + timeoutMs;
    while (this.succeeded < target) {
      if (Date.now() > deadline) throw new Error(`writes made no progress: fewer than ${count} acknowledged in ${timeoutMs} ms (${this.failed.length} failures so far)`);
      await sleep(50);
    }
  }

  /** Stops every writer after its current request; resolves to everything recorded. */
  async stop(): Promise<WriteLoadResult> {
    this.stopping = true;
    await Promise.all(this.running);
    const acknowledged = new Map<string, AcknowledgedWrite>();
    for (const [name, h] of this.histories) if (h.acknowledged !== null) acknowledged.set(name, h.acknowledged);
    return { acknowledged, failures: this.failed, attempted: this.attempted };
  }

  /**
   * What is wrong with `stored` (one replica's objects of this load, by name) given what the
   * writers saw: an acknowledged write missing or replaced by anything but a later write of
   * unknown outcome, an object whose every write failed for certain, a value nobody wrote. Empty
   * when all is well.
   */
  problemsIn(stored: ReadonlyMap<string, StoredObject>): string[] {
    return checkStored(this.histories, stored);
  }

  private async writer(w: number): Promise<void> {
    for (let k = 0; !this.stopping; k += 1) {
      const name = `${this.options.label}-w${w}-${k}`;
      const history: ObjectHistory = { acknowledged: null, uncertain: [] };
      this.histories.set(name, history);
      for (let u = 0; u <= this.options.updatesPerObject && !this.stopping; u += 1) {
        const value = `${name}-v${u}`;
        const ok = await this.write(name, value, history);
        if (!ok) break;
        if (this.options.pauseMs !== undefined) await sleep(this.options.pauseMs);
      }
    }
  }

  /** Sends one create or CAS update; records its result; false when it failed. */
  private async write(name: string, value: string, history: ObjectHistory): Promise<boolean> {
    const previous = history.acknowledged;
    const operation = previous === null ? 'create' : 'update';
    const metadata = { name, labels: { test: this.options.label }, ...(previous === null ? {} : { resourceVersion: String(previous.resourceVersion) }) };
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { v: value } };
    this.attempted += 1;
    try {
      const answer = previous === null
        ? await this.options.client.create<{ metadata: { resourceVersion: string } }>(this.path, body)
        : await this.options.client.update<{ metadata: { resourceVersion: string } }>(`${this.path}/${name}`, body);
      history.acknowledged = { name, resourceVersion: Number(answer.metadata.resourceVersion), value };
      history.uncertain.length = 0;
      this.succeeded += 1;
      return true;
    } catch (error) {
      const outcome = outcomeOf(error);
      if (outcome === 'unknown') history.uncertain.push(value);
      this.failed.push({ name, operation, value, atMs: Date.now(), outcome, error: describeError(error) });
      return false;
    }
  }
}

/** An object as a replica stores it. */
export interface StoredObject {
  readonly resourceVersion: number;
  readonly value: string;
}

/** See WriteLoad.problemsIn. */
function checkStored(histories: ReadonlyMap<string, ObjectHistory>, stored: ReadonlyMap<string, StoredObject>): string[] {
  const problems: string[] = [];
  for (const [name, history] of histories) {
    const found = stored.get(name);
    const ack = history.acknowledged;
    if (found === undefined) {
      if (ack !== null) problems.push(`${name}: acknowledged at ${ack.resourceVersion} (${ack.value}) but missing`);
      continue;
    }
    if (ack !== null && found.resourceVersion === ack.resourceVersion && found.value === ack.value) continue;
    const laterUncertain = history.uncertain.includes(found.value) && (ack === null || found.resourceVersion > ack.resourceVersion);
    if (laterUncertain) continue;
    problems.push(`${name}: stored ${found.value}@${found.resourceVersion}, acknowledged ${ack === null ? 'nothing' : `${ack.value}@${ack.resourceVersion}`}${history.uncertain.length > 0 ? `, unknown outcomes ${history.uncertain.join(', ')}` : ''}`);
  }
  for (const name of stored.keys()) if (!histories.has(name)) problems.push(`${name}: stored but never written`);
  return problems;
}
