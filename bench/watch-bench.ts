// Watch fan-out: W watchers spread over the replicas; for each write, the delay from the write's
// answer to each watcher receiving its event.
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';
import { configMap, resourceVersionOf } from './orch-client.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import { summarize, type LatencySummary } from './stats.ts';

/** What the fan-out measured. `missed` counts (watcher, write) pairs whose event never came. */
export interface WatchResult {
  readonly watchers: number;
  readonly connected: number;
  readonly writes: number;
  readonly delay: LatencySummary;
  readonly missed: number;
  /** Events that reached a watcher before the writer had the write's answer (counted as delay 0). */
  readonly beforeAnswer: number;
}

/** Options of the watch fan-out run. */
export interface WatchBenchOptions {
  readonly watchers: number;
  readonly writes: number;
  readonly connectMsMax: number;
  /** How long to wait after the last write for late events. */
  readonly settleMs: number;
}

/** Opens the watchers, writes `writes` ConfigMaps one at a time, and measures each event's delay. */
export async function runWatchBench(target: OrchTarget, options: WatchBenchOptions): Promise<WatchResult> {
  const namespace = 'bench-watch';
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  await ensureNamespace(pickClient(target, 0), namespace);
  const perReplica = Math.ceil(options.watchers / target.clients.length);
  const pools = target.cluster.replicas.map((r) => new Pool(r.apiUrl, { connect: { ca: target.cluster.caPem }, connections: perReplica + 1, bodyTimeout: 0, headersTimeout: options.connectMsMax }));
  // name -> when each watcher received the ADDED event for it
  const received = new Map<string, number[]>();
  const abort = new AbortController();
  // Every watcher listens on the one signal that ends them all.
  setMaxListeners(options.watchers + 10, abort.signal);
  try {
    const opened = await Promise.allSettled(Array.from({ length: options.watchers }, (_, i) =>
      openWatcher(pools[i % pools.length] ?? pools[0] as Pool, `${base}?watch=1`, target.cluster.adminToken, abort.signal, (name) => {
        const times = received.get(name) ?? [];
        times.push(performance.now());
        received.set(name, times);
      })));
    const connected = opened.filter((o) => o.status === 'fulfilled').length;
    if (connected === 0) throw new Error(`no watcher connected: ${String((opened[0] as PromiseRejectedResult | undefined)?.reason)}`);
    const delays: number[] = [];
    let missed = 0;
    let beforeAnswer = 0;
    const answeredAt = new Map<string, number>();
    for (let i = 0; i < options.writes; i++) {
      const name = `w-${i}`;
      resourceVersionOf(await pickClient(target, i).call('POST', base, configMap(name, 1024), [201]));
      answeredAt.set(name, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 50));
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
    return { watchers: options.watchers, connected, writes: options.writes, delay: summarize(delays), missed, beforeAnswer };
  } finally {
    abort.abort();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }
}

/** Starts one watch; resolves once its answer headers arrive, then keeps reading events in the background. */
async function openWatcher(pool: Pool, path: string, token: string, signal: AbortSignal, onAdded: (name: string) => void): Promise<void> {
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
          if (event.type === 'ADDED' && name !== undefined) onAdded(name);
        }
      }
    } catch {
      // aborted at the end of the run, or the replica closed the stream: missing events are counted
    }
  })();
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
