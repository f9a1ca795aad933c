// A client flooding URLs with GETs from a process of its own, so that its load (reading and parsing
// large LISTs) does not slow the measurements of the process that starts it: the flood benchmark's
// and the Priority and Fairness e2e test's. `connections` loops spread over the URLs, each asking
// again at once whatever the answer (a client that ignores Retry-After), for `ms` or until told
// 'stop'. Its orders come as the first IPC message (a FloodOrders: the token stays out of the
// process list); it sends back its FloodCounts, then exits.
import { Agent, request } from 'undici';

/** What the flooder is told to do. */
export interface FloodOrders {
  readonly urls: readonly string[];
  readonly token: string;
  readonly caPem: string;
  readonly connections: number;
  readonly ms: number;
}

/** What the flood was answered. */
export interface FloodCounts {
  readonly served: number;
  readonly refused: number;
  /** A 429 without `Retry-After: 1` and kube's plain-text body, if one came. */
  readonly badRefusal: string;
  /** Other statuses (or 0 for a failed request) and how often. */
  readonly other: readonly (readonly [number, number])[];
}

async function flood(orders: FloodOrders): Promise<FloodCounts> {
  const { urls, token, caPem, connections, ms } = orders;
  const agent = new Agent({ connect: { ca: caPem }, connections, allowH2: false, bodyTimeout: 60_000, headersTimeout: 60_000 });
  let until = performance.now() + ms;
  process.on('message', (m) => {
    if (m === 'stop') until = 0;
  });
  let served = 0;
  let refused = 0;
  let badRefusal = '';
  const other = new Map<number, number>();
  await Promise.all(Array.from({ length: connections }, async (_, i) => {
    const url = urls[i % urls.length] ?? '';
    while (performance.now() < until) {
      try {
        const res = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${token}` } });
        const text = await res.body.text();
        if (res.statusCode === 200) served++;
        else if (res.statusCode === 429) {
          refused++;
          if (res.headers['retry-after'] !== '1' || text !== 'Too many requests, please try again later.\n') badRefusal = `${String(res.headers['retry-after'])} ${text}`;
        } else other.set(res.statusCode, (other.get(res.statusCode) ?? 0) + 1);
      } catch {
        other.set(0, (other.get(0) ?? 0) + 1);
      }
    }
  }));
  await agent.close();
  return { served, refused, badRefusal, other: [...other] };
}

process.once('message', (orders) => {
  void flood(orders as FloodOrders).then((counts) => process.send?.(counts, () => process.exit(0)));
});
process.on('disconnect', () => process.exit(0));
