// Protobuf against JSON on the same 3-replica cluster in the same run: a LIST of the Pods the API
// phase created (bench-api-<largest count>) and creates of the bench's Pod (bench/pod-body.ts and
// its Protobuf form below), each measured in bytes on the wire, time and the replicas' CPU. The
// two formats alternate (list samples one by one, creates in A-B-B-A halves), so that neither
// gets a warmer server or a larger store than the other.
import assert from 'node:assert/strict';
import { runClosedLoop } from './load.ts';
import type { PhaseBudget } from './limits.ts';
import { benchPod } from './pod-body.ts';
import { clockTicksPerSecond, processCpuMs } from './proc-stats.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import { formatNumber, makeRow, percentile, ratio, summarize, type BenchRow, type LatencySummary } from './stats.ts';
import {
  decodeObject, encodeEnvelope, goContainer, goObjectMeta, goPodSpec, intOrString, protobufMediaType, ProtobufTestClient, quantity, type ProtoMessage,
} from '../test/support/protobuf-test-client.ts';

/** The two wire formats compared. */
export type WireFormat = 'json' | 'protobuf';
const formats: readonly WireFormat[] = ['json', 'protobuf'];
const label: Record<WireFormat, string> = { json: 'JSON', protobuf: 'Protobuf' };

/** What one format measured of the list. */
export interface ListMeasure {
  readonly samples: number;
  readonly responseBytes: number;
  readonly latency: LatencySummary;
  /** The replicas' CPU time (user + system, all 3 summed) per list, in ms. */
  readonly cpuMsPerList: number;
}

/** What one format measured of the creates. */
export interface CreateMeasure {
  readonly creates: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly createsPerSecond: number;
  readonly requestBytes: number;
  readonly responseBytes: number;
  /** The replicas' CPU time per create (the leader's and both followers'), in ms. */
  readonly cpuMsPerCreate: number;
}

/** The Protobuf-against-JSON measurements of one run. */
export interface ProtobufBenchResult {
  readonly listedPods: number;
  /** List samples per format asked for; fewer were taken when the budget ran out (`list[f].samples`). */
  readonly listSamplesPlanned: number;
  /** Measured creates per format asked for (`create[f].creates` says how many were made in time). */
  readonly createsPlanned: number;
  readonly list: Record<WireFormat, ListMeasure>;
  readonly create: Record<WireFormat, CreateMeasure>;
}

/** Bounds of the phase. */
export interface ProtobufBenchOptions {
  /** Namespace holding the Pods to list (made by the API phase). */
  readonly listNamespace: string;
  /** Lists per format, spread over the replicas. */
  readonly listSamples: number;
  /**
   * The lists' share of the budget: no pair of list samples starts unless it fits (as slow as the
   * slowest pair so far) in what is left of it; the first pair always runs.
   */
  readonly listMsMax: number;
  /** Measured creates per format, and unmeasured warm-up creates per format before them. */
  readonly creates: number;
  readonly warmupCreates: number;
  readonly concurrency: number;
  /** performance.now() by which the phase ends: the create loops share what the lists left of it. */
  readonly deadline: number;
  /** Bound on one list (tens of MB) and on one create. */
  readonly requestTimeoutMs: number;
  readonly createTimeoutMs: number;
  /** Progress lines (each list pair, each create loop), so a slow phase shows where its time went. */
  readonly log?: (message: string) => void;
}

/** The lists' share of the phase's budget; the create loops get the rest. */
const listShareOfBudget = 0.4;

/** The phase's bounds for a full run and for BENCH_QUICK, within the phase's `budget`. */
export function protobufBenchOptions(options: { quick: boolean; apiCounts: readonly number[]; apiConcurrency: number; requestTimeoutMs: number; budget: PhaseBudget }): ProtobufBenchOptions {
  return {
    listNamespace: `bench-api-${Math.max(...options.apiCounts)}`,
    // A 10,000-Pod list takes seconds in either format (9-14 s on a loaded machine): 6 of each at most.
    listSamples: options.quick ? 3 : 6,
    listMsMax: options.budget.ms * listShareOfBudget,
    creates: options.quick ? 100 : 2_000,
    warmupCreates: options.quick ? 30 : 300,
    concurrency: options.apiConcurrency,
    deadline: options.budget.deadline,
    // A 10,000-Pod JSON list is tens of MB: it gets twice a request's usual bound.
    requestTimeoutMs: options.requestTimeoutMs * 2,
    createTimeoutMs: options.requestTimeoutMs,
  };
}

/** CPU time (user + system) of every running replica, summed, in ms; from /proc/<pid>/stat. */
function replicasCpuMs(target: OrchTarget, ticksPerSecond: number): number {
  let ms = 0;
  for (const replica of target.cluster.replicas) {
    const pid = replica.process?.pid;
    if (pid === undefined) continue;
    ms += processCpuMs(pid, ticksPerSecond);
  }
  assert.ok(Number.isFinite(ms), 'assert: /proc/<pid>/stat has utime and stime');
  return ms;
}

/** The bench Pod (bench/pod-body.ts) as a Go client fills its structs: every value field, zero where the JSON has none. */
export function benchPodMessage(name: string): ProtoMessage {
  const container = (containerName: string, port: number): ProtoMessage => goContainer({
    name: containerName,
    image: `registry.example.com/shop/${containerName}:1.28.3`,
    command: ['/bin/server'],
    args: ['--port', String(port), '--log-level=info'],
    ports: [{ name: 'http', hostPort: 0, containerPort: port, protocol: 'TCP', hostIP: '' }, { name: 'metrics', hostPort: 0, containerPort: port + 1000, protocol: '', hostIP: '' }],
    env: [
      { name: 'LOG_FORMAT', value: 'json' },
      { name: 'CACHE_SIZE', value: '512' },
      { name: 'POD_NAME', value: '', valueFrom: { fieldRef: { apiVersion: '', fieldPath: 'metadata.name' } } },
      { name: 'POD_IP', value: '', valueFrom: { fieldRef: { apiVersion: '', fieldPath: 'status.podIP' } } },
      { name: 'MEMORY_LIMIT', value: '', valueFrom: { resourceFieldRef: { containerName: '', resource: 'limits.memory', divisor: quantity('0') } } },
    ],
    resources: { requests: { cpu: quantity('250m'), memory: quantity('256Mi') }, limits: { cpu: quantity('1'), memory: quantity('512Mi') } },
    livenessProbe: { handler: { httpGet: { path: '/healthz', port: intOrString(port), host: '', scheme: '' } }, initialDelaySeconds: 10, timeoutSeconds: 0, periodSeconds: 10, successThreshold: 0, failureThreshold: 3 },
    readinessProbe: { handler: { httpGet: { path: '/ready', port: intOrString('http'), host: '', scheme: '' } }, initialDelaySeconds: 0, timeoutSeconds: 0, periodSeconds: 5, successThreshold: 0, failureThreshold: 0 },
    startupProbe: { handler: { tcpSocket: { port: intOrString(port), host: '' } }, initialDelaySeconds: 0, timeoutSeconds: 0, periodSeconds: 2, successThreshold: 0, failureThreshold: 30 },
    volumeMounts: [
      { name: 'config', readOnly: true, mountPath: '/etc/app', subPath: '', subPathExpr: '' },
      { name: 'cache', readOnly: false, mountPath: '/var/cache/app', subPath: '', subPathExpr: '' },
      { name: 'tls', readOnly: true, mountPath: '/etc/tls', subPath: '', subPathExpr: '' },
    ],
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  });
  return {
    metadata: goObjectMeta({ name, labels: { app: 'shop', tier: 'backend', 'app.kubernetes.io/version': '1.28.3' }, annotations: { 'prometheus.io/scrape': 'true' } }),
    spec: goPodSpec({
      containers: [container('api', 8080), container('worker', 8081), container('sidecar', 8082)],
      volumes: [
        { name: 'config', volumeSource: { configMap: { localObjectReference: { name: 'shop-config' }, items: [{ key: 'app.yaml', path: 'app.yaml' }] } } },
        { name: 'cache', volumeSource: { emptyDir: { medium: '', sizeLimit: quantity('1Gi') } } },
        { name: 'tls', volumeSource: { secret: { secretName: 'shop-tls', defaultMode: 0o440 } } },
      ],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'shop', effect: 'NoSchedule' }],
      terminationGracePeriodSeconds: 30,
    }),
    status: {},
  };
}

/** What a request sends and asks for in `format`. */
function wire(format: WireFormat): { accept: string } {
  return { accept: format === 'json' ? 'application/json' : protobufMediaType };
}

/** `samples` lists per format of the Pods in `namespace`, alternating formats and replicas; checks both list the same number of Pods. */
async function measureLists(target: OrchTarget, clients: readonly ProtobufTestClient[], options: ProtobufBenchOptions, ticks: number): Promise<{ listedPods: number; list: Record<WireFormat, ListMeasure> }> {
  const samples = { json: { bytes: [] as number[], ms: [] as number[], cpuMs: 0 }, protobuf: { bytes: [] as number[], ms: [] as number[], cpuMs: 0 } };
  const counted: Partial<Record<WireFormat, number>> = {};
  const start = performance.now();
  let slowestPairMs = 0;
  for (let s = 0; s < options.listSamples && (s === 0 || performance.now() - start + slowestPairMs <= options.listMsMax); s++) {
    const pairStart = performance.now();
    for (const format of s % 2 === 0 ? formats : [...formats].reverse()) {
      const client = clients[s % clients.length]!;
      const cpu0 = replicasCpuMs(target, ticks);
      const t0 = performance.now();
      const answer = await client.send('GET', `/api/v1/namespaces/${options.listNamespace}/pods`, wire(format));
      const ms = performance.now() - t0;
      samples[format].cpuMs += replicasCpuMs(target, ticks) - cpu0;
      if (answer.status !== 200) throw new Error(`list in ${label[format]}: ${answer.status} ${answer.body.subarray(0, 200).toString('utf8')}`);
      samples[format].bytes.push(answer.body.length);
      samples[format].ms.push(ms);
      counted[format] ??= format === 'json'
        ? (JSON.parse(answer.body.toString('utf8')) as { items: unknown[] }).items.length
        : ((decodeObject(answer.body).message.items ?? []) as unknown[]).length;
    }
    slowestPairMs = Math.max(slowestPairMs, performance.now() - pairStart);
    options.log?.(`protobuf: list pair ${s + 1} took ${((performance.now() - pairStart) / 1000).toFixed(1)} s`);
  }
  if (counted.json !== counted.protobuf) throw new Error(`the JSON list has ${counted.json} Pods, the Protobuf one ${counted.protobuf}`);
  const measure = (format: WireFormat): ListMeasure => ({
    samples: samples[format].ms.length,
    responseBytes: percentile(samples[format].bytes, 50),
    latency: summarize(samples[format].ms),
    cpuMsPerList: samples[format].cpuMs / samples[format].ms.length,
  });
  return { listedPods: counted.json ?? 0, list: { json: measure('json'), protobuf: measure('protobuf') } };
}

/** One closed loop of `count` creates of the bench Pod in `format` into `namespace`, with the replicas' CPU and the bytes both ways. */
async function createLoop(target: OrchTarget, clients: readonly ProtobufTestClient[], format: WireFormat, namespace: string, count: number, first: number, options: ProtobufBenchOptions, ticks: number, durationMs: number) {
  let requestBytes = 0;
  let responseBytes = 0;
  const cpu0 = replicasCpuMs(target, ticks);
  const started = performance.now();
  const load = await runClosedLoop({ concurrency: options.concurrency, durationMs, opsMax: count, op: async (seq) => {
    const name = `${format}-${first + seq}`;
    const body = format === 'json' ? JSON.stringify(benchPod(name)) : encodeEnvelope({ apiVersion: 'v1', kind: 'Pod' }, benchPodMessage(name));
    const answer = await clients[seq % clients.length]!.send('POST', `/api/v1/namespaces/${namespace}/pods`, { body, contentType: format === 'json' ? 'application/json' : protobufMediaType, ...wire(format) });
    if (answer.status !== 201) throw new Error(`create in ${label[format]}: ${answer.status} ${answer.body.subarray(0, 200).toString('utf8')}`);
    requestBytes += Buffer.byteLength(body);
    responseBytes += answer.body.length;
  } });
  options.log?.(`protobuf: ${load.ops} of ${count} ${label[format]} creates in ${namespace} took ${((performance.now() - started) / 1000).toFixed(1)} s (share ${(durationMs / 1000).toFixed(1)} s)`);
  return { load, requestBytes, responseBytes, cpuMs: replicasCpuMs(target, ticks) - cpu0 };
}

/** Warm-up creates of both formats, then `creates` per format in A-B-B-A halves, each format in its own namespace. */
async function measureCreates(target: OrchTarget, clients: readonly ProtobufTestClient[], options: ProtobufBenchOptions, ticks: number): Promise<Record<WireFormat, CreateMeasure>> {
  for (const namespace of ['bench-pb-warmup', 'bench-pb-json', 'bench-pb-protobuf']) await ensureNamespace(pickClient(target, 0), namespace);
  // Each loop gets an even share of what is left of the phase, less one request's bound (a loop
  // waits for its creates in flight), so the last one is not starved and the phase ends in its
  // budget; once nothing is left, the remaining loops start no create (their rows stay empty).
  let loopsLeft = formats.length + 4;
  const share = (): number => Math.max(0, (options.deadline - options.createTimeoutMs - performance.now()) / loopsLeft--);
  for (const format of formats) await createLoop(target, clients, format, 'bench-pb-warmup', options.warmupCreates, 0, options, ticks, share());
  const half = Math.ceil(options.creates / 2);
  const order: WireFormat[] = ['json', 'protobuf', 'protobuf', 'json'];
  const runs: { format: WireFormat; run: Awaited<ReturnType<typeof createLoop>> }[] = [];
  for (const format of order) {
    const done = runs.filter((r) => r.format === format).length;
    runs.push({ format, run: await createLoop(target, clients, format, `bench-pb-${format}`, done === 0 ? half : options.creates - half, done * half, options, ticks, share()) });
  }
  const measure = (format: WireFormat): CreateMeasure => {
    const mine = runs.filter((r) => r.format === format).map((r) => r.run);
    const ops = mine.reduce((n, r) => n + r.load.ops, 0);
    const elapsedMs = mine.reduce((n, r) => n + r.load.elapsedMs, 0);
    return {
      creates: ops,
      errors: mine.reduce((n, r) => n + r.load.errors, 0),
      firstError: mine.find((r) => r.load.firstError !== null)?.load.firstError ?? null,
      createsPerSecond: ops > 0 && elapsedMs > 0 ? (ops * 1000) / elapsedMs : Number.NaN,
      requestBytes: ops > 0 ? mine.reduce((n, r) => n + r.requestBytes, 0) / ops : Number.NaN,
      responseBytes: ops > 0 ? mine.reduce((n, r) => n + r.responseBytes, 0) / ops : Number.NaN,
      cpuMsPerCreate: ops > 0 ? mine.reduce((n, r) => n + r.cpuMs, 0) / ops : Number.NaN,
    };
  };
  return { json: measure('json'), protobuf: measure('protobuf') };
}

/** Runs the list rows, then the create rows, against `target` (after the API phase made the Pods to list). */
export async function runProtobufBench(target: OrchTarget, options: ProtobufBenchOptions): Promise<ProtobufBenchResult> {
  const ticks = clockTicksPerSecond();
  const clientsWith = (timeoutMs: number): ProtobufTestClient[] => target.cluster.replicas.map((r) => new ProtobufTestClient(r.apiUrl, target.cluster.caPem, target.cluster.adminToken, { connections: options.concurrency, timeoutMs }));
  const listClients = clientsWith(options.requestTimeoutMs);
  const createClients = clientsWith(options.createTimeoutMs);
  try {
    const lists = await measureLists(target, listClients, options, ticks);
    return { ...lists, listSamplesPlanned: options.listSamples, createsPlanned: options.creates, create: await measureCreates(target, createClients, options, ticks) };
  } finally {
    await Promise.all([...listClients, ...createClients].map((c) => c.close().catch(() => undefined)));
  }
}

/** The table's rows: each measure once per format, JSON first. */
export function protobufRows(result: ProtobufBenchResult, concurrency: number): BenchRow[] {
  const section = 'protobuf';
  const list = `list of ${result.listedPods} pods`;
  const create = `create pod`;
  return formats.flatMap((f) => [
    makeRow({ section, name: `${list}, ${label[f]}: bytes`, unit: 'MiB', orch: result.list[f].responseBytes / 2 ** 20 }),
    makeRow({ section, name: `${list}, ${label[f]}: p50`, unit: 'ms', orch: result.list[f].latency.p50Ms }),
    makeRow({ section, name: `${list}, ${label[f]}: p99 of ${result.list[f].samples}`, unit: 'ms', orch: result.list[f].latency.p99Ms }),
    makeRow({ section, name: `${list}, ${label[f]}: replicas' CPU per list`, unit: 'ms', orch: result.list[f].cpuMsPerList }),
  ]).concat(formats.flatMap((f) => [
    makeRow({ section, name: `${create}, ${label[f]}: request bytes`, unit: 'B', orch: result.create[f].requestBytes }),
    makeRow({ section, name: `${create}, ${label[f]}: response bytes`, unit: 'B', orch: result.create[f].responseBytes }),
    makeRow({ section, name: `${create}, ${label[f]}: ${result.create[f].creates} creates c=${concurrency}`, unit: 'ops/s', orch: result.create[f].createsPerSecond }),
    makeRow({ section, name: `${create}, ${label[f]}: replicas' CPU per create`, unit: 'ms', orch: result.create[f].cpuMsPerCreate }),
  ]));
}

/** One `info:` line of Protobuf / JSON ratios, and the problems worth printing under the table. */
export function protobufNotes(result: ProtobufBenchResult): string[] {
  const r = (pick: (f: WireFormat) => number): string => formatNumber(ratio(pick('protobuf'), pick('json')));
  const notes = [
    `info: Protobuf / JSON: list of ${result.listedPods} pods bytes ${r((f) => result.list[f].responseBytes)}, p50 ${r((f) => result.list[f].latency.p50Ms)}, CPU ${r((f) => result.list[f].cpuMsPerList)}; `
      + `create request bytes ${r((f) => result.create[f].requestBytes)}, creates/s ${r((f) => result.create[f].createsPerSecond)}, CPU ${r((f) => result.create[f].cpuMsPerCreate)}`,
  ];
  const taken = result.list.json.samples;
  if (taken < result.listSamplesPlanned) notes.push(`protobuf bench: list sampling stopped at its share of the phase's budget after ${taken} of ${result.listSamplesPlanned} lists per format`);
  for (const f of formats) {
    const c = result.create[f];
    if (c.creates + c.errors < result.createsPlanned) notes.push(`protobuf bench: only ${c.creates} of ${result.createsPlanned} ${label[f]} creates finished within the phase's budget`);
    if (c.errors > 0) notes.push(`protobuf bench: ${c.errors} ${label[f]} creates failed (first: ${c.firstError ?? '?'})`);
  }
  return notes;
}
