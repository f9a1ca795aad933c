// A TCP proxy for one directed peer link (replica A dialing replica B). Peer traffic is gRPC over
// mutual TLS; the proxy passes the bytes through untouched, so it needs no certificates. Faults
// cut the link: `drop` resets every connection and refuses new ones at once (the dialer sees
// errors and backs off), `blackhole` accepts connections but forwards nothing (the dialer sees
// silence until its keepalive gives up). `heal` restores normal forwarding for new connections.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** How a link treats traffic. */
export type LinkMode = 'open' | 'drop' | 'blackhole';

/** One directed link's proxy. `close()` ends the listener and every connection it holds. */
export class LinkProxy {
  private mode: LinkMode = 'open';
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    /** host:port the proxy listens on (what the dialing replica is told). */
    readonly address: string,
    /** host:port of the real peer listener. */
    readonly target: string,
  ) {}

  /** Starts a proxy on 127.0.0.1 (port chosen by the system) forwarding to `target` (host:port). */
  static async start(target: string): Promise<LinkProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const bound = server.address();
    if (bound === null || typeof bound === 'string') throw new Error('assert: proxy listener has no port');
    const proxy = new LinkProxy(server, `127.0.0.1:${bound.port}`, target);
    server.on('connection', (socket) => proxy.accept(socket));
    return proxy;
  }

  /** The current mode. */
  get linkMode(): LinkMode {
    return this.mode;
  }

  /** Cuts the link: existing connections are destroyed; new ones are treated per `mode`. */
  cut(mode: 'drop' | 'blackhole'): void {
    this.mode = mode;
    this.destroyAll();
  }

  /** Restores forwarding. Blackholed connections are destroyed so the dialer reconnects promptly. */
  heal(): void {
    if (this.mode === 'open') return;
    this.mode = 'open';
    this.destroyAll();
  }

  /** Stops listening and destroys every connection. */
  async close(): Promise<void> {
    this.destroyAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.mode === 'drop') {
      client.resetAndDestroy();
      return;
    }
    if (this.mode === 'blackhole') {
      client.resume();
      return;
    }
    const [host, port] = splitHostPort(this.target);
    const upstream = createConnection({ host, port });
    this.track(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}

function splitHostPort(address: string): [string, number] {
  const match = /^(.*):(\d+)$/.exec(address);
  if (match === null || match[1] === undefined) throw new Error(`assert: "${address}" is not host:port`);
  return [match[1], Number(match[2])];
}
