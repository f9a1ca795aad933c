// The chaos workload: client processes, each one OrchClient balancing over every replica, issuing
// creates, compare-and-swap updates, conditional deletes, consistent gets and lists over a small
// key space (so operations contend), one at a time per process. Every operation is recorded with
// its invocation and completion times and its outcome in the checkers' history format.
import { setTimeout as sleep } from 'node:timers/promises';
import { OrchClient } from '../../internal/client/index.ts';
import { Rng } from '../sim/rng.ts';
import type { Operation, OpType, VersionedValue } from './checkers/history.ts';
import { readOutcomeOf, writeOutcomeOf } from './checkers/record.ts';

/** Where the workload's objects live and how they are told apart from anything else. */
export const workloadPath = '/api/v1/namespaces/default/configmaps';
export const workloadLabel = 'chaos=workload';
/** Every workload key (object name) starts with this; lists are recorded with it as their key. */
export const keyPrefix = 'k';

/** Options of `runWorkload`. */
export interface WorkloadOptions {
  readonly servers: readonly string[];
  readonly caPem: string;
  readonly token: string;
  readonly processes: number;
  readonly keys: number;
  readonly seed: number;
  readonly signal: AbortSignal;
  /** Time allowed for one request's answer (a paused replica answers nothing). */
  readonly requestTimeoutMs?: number;
  /** Pause between one process's operations. */
  readonly thinkMs?: number;
}

/** A recorded history and when the clock of its times started. */
export interface RecordedHistory {
  readonly operations: Operation[];
  readonly epochMs: number;
}

interface ConfigMap {
  metadata: { name: string; resourceVersion: string; labels?: Record<string, string> };
  data?: { v?: string };
}

/** Runs `processes` client loops until the signal aborts; resolves with every operation recorded. */
export async function runWorkload(options: WorkloadOptions, history: RecordedHistory): Promise<void> {
  const rng = new Rng(options.seed).derive('workload');
  await Promise.all(Array.from({ length: options.processes }, (_, p) => clientLoop(options, history, `p${p}`, rng.derive(`p${p}`))));
}

/** The key of index `i`: k00, k01, ... */
export function keyName(i: number): string {
  return `${keyPrefix}${String(i).padStart(2, '0')}`;
}

async function clientLoop(options: WorkloadOptions, history: RecordedHistory, process: string, rng: Rng): Promise<void> {
  const client = new OrchClient({
    servers: options.servers,
    caPem: options.caPem,
    token: options.token,
    requestTimeoutMs: options.requestTimeoutMs ?? 4_000,
    userAgent: `orch-chaos/${process}`,
  });
  // The last version this process saw per key: compare-and-swap and delete preconditions use it.
  const seen = new Map<string, number>();
  let counter = 0;
  const now = (): number => Date.now() - history.epochMs;
  try {
    while (!options.signal.aborted) {
      const key = keyName(rng.int(options.keys));
      const type = chooseType(rng, seen.has(key));
      counter += 1;
      const value = `${process}-${counter}`;
      const invokeMs = now();
      const done = await perform(client, type, key, value, seen.get(key));
      const completeMs = now();
      if (done.output?.resourceVersion !== undefined && type !== 'delete') seen.set(key, done.output.resourceVersion);
      if (type === 'get') {
        if (done.output?.found === true && done.output.resourceVersion !== undefined) seen.set(key, done.output.resourceVersion);
        else if (done.outcome === 'ok') seen.delete(key);
      }
      if (type === 'list' && done.outcome === 'ok') for (const item of done.output?.items ?? []) seen.set(item.key, item.resourceVersion);
      if (type === 'delete' && done.outcome === 'ok') seen.delete(key);
      history.operations.push({ process, type, key: type === 'list' ? keyPrefix : key, input: done.input, ...(done.output === undefined ? {} : { output: done.output }), invokeMs, completeMs, outcome: done.outcome });
      const thinkMs = options.thinkMs ?? 10;
      if (thinkMs > 0) await sleep(rng.int(thinkMs * 2 + 1));
    }
  } finally {
    await client.close();
  }
}

function chooseType(rng: Rng, haveVersion: boolean): OpType {
  const roll = rng.int(100);
  if (roll < 25) return 'get';
  if (roll < 35) return 'list';
  if (roll < 55) return 'create';
  if (!haveVersion) return 'get';
  return roll < 85 ? 'cas-update' : 'delete';
}

type Done = Pick<Operation, 'input' | 'output' | 'outcome'>;

async function perform(client: OrchClient, type: OpType, key: string, value: string, expected: number | undefined): Promise<Done> {
  const path = `${workloadPath}/${key}`;
  const body = (rv?: number): unknown => ({
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: key, labels: { chaos: 'workload' }, ...(rv === undefined ? {} : { resourceVersion: String(rv) }) },
    data: { v: value },
  });
  switch (type) {
    case 'create':
      return write({ value }, () => client.create<ConfigMap>(workloadPath, body()));
    case 'cas-update':
      return write({ value, expectedResourceVersion: expected as number }, () => client.update<ConfigMap>(path, body(expected)));
    case 'delete': {
      const options = { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { resourceVersion: String(expected) } };
      // The answer of a delete is not used as a revision (see PartitionOptions.deleteReportsDeletionRevision).
      return write({ expectedResourceVersion: expected as number }, async () => {
        await client.delete(path, { body: options });
        return undefined;
      });
    }
    case 'get':
      try {
        const object = await client.get<ConfigMap>(path);
        return { input: {}, outcome: 'ok', output: { found: true, value: object.data?.v, resourceVersion: Number(object.metadata.resourceVersion) } };
      } catch (error) {
        const outcome = readOutcomeOf(error);
        return { input: {}, outcome: outcome.outcome, ...(outcome.code === 404 ? { output: { found: false, code: 404 } } : {}) };
      }
    case 'list':
      try {
        const list = await client.list<{ items: ConfigMap[] }>(workloadPath, { query: { labelSelector: workloadLabel } });
        return { input: {}, outcome: 'ok', output: { items: list.items.map(versioned) } };
      } catch {
        return { input: {}, outcome: 'fail' };
      }
  }
}

async function write(input: Operation['input'], call: () => Promise<ConfigMap | undefined>): Promise<Done> {
  try {
    const object = await call();
    return { input, outcome: 'ok', ...(object === undefined ? {} : { output: { resourceVersion: Number(object.metadata.resourceVersion) } }) };
  } catch (error) {
    const outcome = writeOutcomeOf(error);
    return { input, outcome: outcome.outcome, ...(outcome.code === undefined ? {} : { output: { code: outcome.code } }) };
  }
}

/** An object as the checkers record it: its name, its value (data.v) and its revision. */
export function versioned(object: ConfigMap): VersionedValue {
  return { key: object.metadata.name, value: object.data?.v, resourceVersion: Number(object.metadata.resourceVersion) };
}
