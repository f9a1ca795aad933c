// Which of a cluster's fixed ports something already listens on: `make run` uses fixed ports, and
// a second cluster started beside the first would otherwise find the first one answering for it.
import { createServer } from 'node:net';

/** A port that could not be listened on, and the error code saying why (EADDRINUSE, EACCES, ...). */
export interface PortInUse {
  readonly port: number;
  readonly code: string;
}

/** A start refused because some of its ports cannot be listened on. */
export class PortsInUseError extends Error {
  constructor(readonly host: string, readonly refused: readonly PortInUse[]) {
    const ports = refused.map((r) => `${host}:${r.port} (${r.code})`).join(', ');
    super(`cannot listen on ${ports}${PortsInUseError.heldByAnother(refused) ? ': is another cluster running on these ports?' : ''}`);
  }

  /** Whether something else listens on one of the ports (not a permission or address error). */
  static heldByAnother(refused: readonly PortInUse[]): boolean {
    return refused.some((r) => r.code === 'EADDRINUSE');
  }
}

/** The ports of `ports` this process cannot listen on at `host`, each tried and released at once. */
export async function portsInUse(host: string, ports: readonly number[]): Promise<PortInUse[]> {
  const refused: PortInUse[] = [];
  for (const port of ports) {
    const code = await listenError(host, port);
    if (code !== null) refused.push({ port, code });
  }
  return refused;
}

function listenError(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}
