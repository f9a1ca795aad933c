// Watch fan-out: W watchers spread over the replicas; for each write, the delay from the write's
// answer to each watcher receiving its event. Then, in the same run, the floor: a bare Node HTTPS
// server (bench/fanout-floor.ts) holding the same number of connections, writing the bytes orch sent
// for each event, read and timed by the very same watcher code.
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';
import { startFanOutFloor } from './fanout-floor.ts';
import { configMap, resourceVersionOf } from './orch-client.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import { percentile, summarize, type LatencySummary } from './stats.ts';

/** What one fan-out measured. `missed` counts (watcher, write) pairs whose event never came. */
export interface FanOutMeasure {
  readonly watchers: number;
  readonly connected: number;
  readonly writes: number;
  readonly delay: LatencySummary;
  readonly missed: number;
  /** Events that reached a watcher before the writer had the write's answer (counted as delay 0). */
  readonly beforeAnswer: number;
}

/** orch's fan-out, the bytes of its events, and the bare server's fan-out of those bytes (null when it could not run). */
export interface WatchResult extends FanOutMeasure {
  /** The p50 size of one event as orch sent it (the JSON line and its newline), in bytes. */
  readonly eventBytes: number;
  readonly floor: FanOutMeasure | null;
  readonly floorError: string | null;
}

/** Options of the watch fan-out run. */
export interface WatchBenchOptions {
  readonly watchers: number;
  readonly writes: number;
  readonly connectMsMax: number;
  /** How long to wait after the last write for late events. */
  readonly settleMs: number;
  /** Where the floor server's certificate goes. */
  readonly dataDir: string;
}

/** Where watchers connect and how; `write(i)` makes event `names[i]` and resolves with the write's answer. */
interface FanOutTarget {
  readonly urls: readonly string[];
  readonly caPem: string;
  readonly path: string;
  readonly token: string;
  readonly names: readonly string[];
  write(i: number): Promise<void>;
}

/** Pause between two writes, so that each event's fan-out is timed alone. */
const writeSpacingMs = 50;

/** orch's fan-out, then the floor's with orch's event bytes. */
export async function runWatchBench(target: OrchTarget, options: WatchBenchOptions): Promise<WatchResult> {
  const namespace = 'bench-watch';
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  await ensureNamespace(pickClient(target, 0), namespace);
  const names = Array.from({ length: options.writes }, (_, i) => `w-${i}`);
  const orch = await measureFanOut({
    urls: target.cluster.replicas.map((r) => r.apiUrl),
    caPem: target.cluster.caPem,
    path: `${base}?watch=1`,
    token: target.cluster.adminToken,
    names,
    async write(i) {
      resourceVersionOf(await pickClient(target, i).call('POST', base, configMap(names[i] ?? '', 1024), [201]));
    },
  }, options);
  const lines = names.map((n) => orch.lines.get(n));
  const eventBytes = percentile(lines.filter((l) => l !== undefined).map((l) => Buffer.byteLength(`${l}\n`)), 50);
  let floor: FanOutMeasure | null = null;
  let floorError: string | null = null;
  try {
    if (lines.some((l) => l === undefined)) throw new Error('orch sent no event for some writes: no bytes to write');
    const server = await startFanOutFloor(options.dataDir);
    try {
      floor = (await measureFanOut({
        urls: [server.url],
        caPem: server.caPem,
        path: '/watch',
        token: target.cluster.adminToken,
        names,
        write: (i) => server.send(`${lines[i] ?? ''}\n`),
      }, options)).measure;
    } finally {
      await server.stop();
    }
  } catch (error) {
    floorError = error instanceof Error ? error.message : String(error);
  }
  return { ...orch.measure, eventBytes, floor, floorError };
}

/**
 * Opens `options.watchers` watchers spread over the target's URLs, makes each event one at a time,
 * and measures each event's delay from the write's answer to its arrival at every watcher. Also
 * returns one watcher's raw line per event name (the bytes the server sent).
 */
async function measureFanOut(target: FanOutTarget, options: WatchBenchOptions): Promise<{ measure: FanOutMeasure; lines: Map<string, string> }> {
  const perUrl = Math.ceil(options.watchers / target.urls.length);
  const pools = target.urls.map((url) => new Pool(url, { connect: { ca: target.caPem }, connections: perUrl + 1, bodyTimeout: 0, headersTimeout: options.connectMsMax }));
  // name -> when each watcher received the ADDED event for it
  const received = new Map<string, number[]>();
  const lines = new Map<string, string>();
  const abort = new AbortController();
  // Every watcher listens on the one signal that ends them all.
  setMaxListeners(options.watchers + 10, abort.signal);
  try {
    const opened = await Promise.allSettled(Array.from({ length: options.watchers }, (_, i) =>
      openWatcher(pools[i % pools.length] ?? pools[0] as Pool, target.path, target.token, abort.signal, (name, line) => {
        const times = received.get(name) ?? [];
        times.push(performance.now());
        received.set(name, times);
        if (!lines.has(name)) lines.set(name, line);
      })));
    const connected = opened.filter((o) => o.status === 'fulfilled').length;
    if (connected === 0) throw new Error(`no watcher connected: ${String((opened[0] as PromiseRejectedResult | undefined)?.reason)}`);
    const delays: number[] = [];
    let missed = 0;
    let beforeAnswer = 0;
    const answeredAt = new Map<string, number>();
    for (const [i, name] of target.names.entries()) {
      await target.write(i);
      answeredAt.set(name, performance.now());
      await new Promise((resolve) => setTimeout(resolve, writeSpacingMs));
    }
    await waitUntil(() => [...answeredAt.keys()].every((n) => (received.get(n)?.length ?? 0) >= connected), options.settleMs);
    for (const [name, at] of answeredAt) {
      const times = received.get(name) ?? [];
      missed += Math.max(0, connected - times.length);
      // An event can reach a watcher before the writer has read its answer: that delay is 0.
      for (const t of times) {
        if (t < at) beforeAnswer++;
        delays.push(Math.max(0, t - at));
      }
    }
    return { measure: { watchers: options.watchers, connected, writes: target.names.length, delay: summarize(delays), missed, beforeAnswer }, lines };
  } finally {
    abort.abort();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }
}

/** Starts one watch; resolves once its answer headers arrive, then keeps reading events in the background. */
async function openWatcher(pool: Pool, path: string, token: string, signal: AbortSignal, onAdded: (name: string, line: string) => void): Promise<void> {
  const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` }, signal });
  if (res.statusCode !== 200) {
    const text = await res.body.text();
    throw new Error(`watch: ${res.statusCode} ${text.slice(0, 200)}`);
  }
  void (async () => {
    let buffered = '';
    try {
      for await (const chunk of res.body) {
        buffered += (chunk as Buffer).toString();
        let newline = buffered.indexOf('\n');
        while (newline !== -1) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf('\n');
          if (line.trim() === '') continue;
          const event = JSON.parse(line) as { type?: string; object?: { metadata?: { name?: string } } };
          const name = event.object?.metadata?.name;
          if (event.type === 'ADDED' && name !== undefined) onAdded(name, line);
        }
      }
    } catch {
      // aborted at the end of the run, or the server closed the stream: missing events are counted
    }
  })();
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
