// Waiting for a server process to answer: polls one URL until its answer is accepted, the process
// gives up, or the time runs out. Used by every cluster the benchmark starts.
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

/** Pause between two probes of one URL. */
const httpWaitPollMs = 200;
/** Bound of one probe (headers and body). */
const probeTimeoutMs = 2_000;

/** How to wait for one URL. */
export interface HttpWaitOptions {
  readonly timeoutMs: number;
  /** Whether an answer means ready. */
  readonly accept: (status: number, text: string) => boolean;
  /** Why waiting is pointless now (e.g. the process exited), or null to keep waiting. */
  readonly givenUp?: () => string | null;
}

/** Resolves once `url` answers an accepted response; throws with the last answer otherwise. */
export async function waitHttpOk(url: string, options: HttpWaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let last = 'no answer';
  for (;;) {
    const reason = options.givenUp?.() ?? null;
    if (reason !== null) throw new Error(`${url}: ${reason}`);
    try {
      const res = await request(url, { headersTimeout: probeTimeoutMs, bodyTimeout: probeTimeoutMs });
      const text = await res.body.text();
      if (options.accept(res.statusCode, text)) return;
      last = `${res.statusCode} ${text}`;
    } catch (error) {
      last = String(error);
    }
    if (Date.now() > deadline) throw new Error(`${url}: not ready after ${options.timeoutMs} ms: ${last}`);
    await sleep(httpWaitPollMs);
  }
}
