import { request } from 'node:https';

/** Limits of waiting for a replica to become ready. */
export const readyPollIntervalMs = 200;

/** Asks `GET {apiUrl}/readyz` once; resolves true on 200. Never throws. */
export function probeReady(apiUrl: string, caPem: string, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${apiUrl}/readyz`, { ca: caPem, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/**
 * Waits until every URL answers /readyz with 200, or throws after `timeoutMs`, or as soon as
 * `givenUp` says why waiting longer is pointless (a replica that exited will never be ready).
 */
export async function waitReady(apiUrls: readonly string[], caPem: string, timeoutMs: number, givenUp: () => string | null = () => null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(apiUrls);
  while (pending.size > 0) {
    for (const url of [...pending]) if (await probeReady(url, caPem)) pending.delete(url);
    if (pending.size === 0) return;
    const why = givenUp();
    if (why !== null) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms: ${[...pending].join(', ')}`);
    await new Promise((r) => setTimeout(r, readyPollIntervalMs));
  }
}
