// A client flooding one URL with GETs from a process of its own (so that its load does not slow the
// test's own measurements): `connections` loops, each asking again at once whatever the answer (a
// client that ignores Retry-After), for `ms`. Sends its counts to the parent over IPC, then exits.
// Arguments: <url> <bearer token> <CA file> <connections> <ms>
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

/** What the flood was answered. */
export interface FloodCounts {
  readonly served: number;
  readonly refused: number;
  /** A 429 without `Retry-After: 1` and kube's plain-text body, if one came. */
  readonly badRefusal: string;
  /** Other statuses (or 0 for a failed request) and how often. */
  readonly other: readonly (readonly [number, number])[];
}

async function flood(url: string, token: string, ca: string, connections: number, ms: number): Promise<FloodCounts> {
  const agent = new Agent({ connect: { ca }, connections, allowH2: false, bodyTimeout: 60_000, headersTimeout: 60_000 });
  const until = performance.now() + ms;
  let served = 0;
  let refused = 0;
  let badRefusal = '';
  const other = new Map<number, number>();
  await Promise.all(Array.from({ length: connections }, async () => {
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

const [url, token, caFile, connections, ms] = process.argv.slice(2);
if (url === undefined || token === undefined || caFile === undefined) throw new Error('usage: list-flooder <url> <token> <ca file> <connections> <ms>');
const counts = await flood(url, token, readFileSync(caFile, 'utf8'), Number(connections), Number(ms));
process.send?.(counts, () => process.exit(0));
