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
