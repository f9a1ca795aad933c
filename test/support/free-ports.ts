import { createServer, type Server } from 'node:net';

/**
 * Picks `count` distinct free TCP ports on 127.0.0.1 by binding port 0 and releasing it.
 * Multi-process clusters must know every peer's port before they start, so port 0 cannot be
 * handed to the processes themselves; this chooses them at run time instead.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<Server>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => {
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('assert: bound server has no port');
    return address.port;
  });
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** Whether every port of `ports` can be bound on 127.0.0.1 now (each released before returning). */
async function allBindable(ports: readonly number[]): Promise<boolean> {
  const bound: Server[] = [];
  try {
    for (const port of ports) {
      bound.push(await new Promise<Server>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve(server));
      }));
    }
    return true;
  } catch {
    return false;
  } finally {
    await Promise.all(bound.map((s) => new Promise((r) => s.close(r))));
  }
}

/** Where consecutive ports are looked for: below Linux's ephemeral range (32768 up), where port 0 and outgoing connections would take them meanwhile. */
const consecutiveRange = { first: 20_000, end: 32_000 };
/** Random bases tried before giving up. */
const consecutiveAttemptsMax = 50;

/** The first port of `count` consecutive free ports, for a command that numbers its replicas' ports from one base (cmd/orch-cluster.ts). */
export async function freeConsecutivePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < consecutiveAttemptsMax; attempt++) {
    const base = consecutiveRange.first + Math.floor(Math.random() * (consecutiveRange.end - consecutiveRange.first - count));
    if (await allBindable(Array.from({ length: count }, (_, i) => base + i))) return base;
  }
  throw new Error(`no ${count} consecutive free ports found in ${consecutiveAttemptsMax} attempts`);
}
