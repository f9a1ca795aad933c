// Where orchctl connects and with which credentials: the connection flags every cluster command
// takes, the kubeconfig they name, and the clients built from it. Every client is built through
// OrchClient.fromKubeconfig (from a kubeconfig narrowed to the servers wanted), so whatever the
// kubeconfig user holds — token, client certificate, exec plugin — works the same everywhere.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { OrchClient } from '../client/client.ts';
import { loadKubeconfig, resolveContext, sameCaServers, type Kubeconfig, type KubeconfigCluster } from '../client/kubeconfig.ts';
import { parseDurationMs, stringOption, type OptionSpec, type ParsedArgs } from './args.ts';
import { CtlError, type CtlIo } from './command.ts';
import { toCtlError, type ApiHints } from './errors.ts';

/** The flags of every command that talks to a cluster. */
export const connectionOptions: OptionSpec = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  endpoints: { type: 'string' },
  'request-timeout': { type: 'string' },
};

/** Their --help lines. */
export const connectionUsage = `Connection flags:
  --kubeconfig FILE          the kubeconfig (default: $KUBECONFIG, else .orch/kubeconfig as make run writes it)
  --context NAME             the kubeconfig context (default: its current-context)
  --endpoints URL,URL        more replica URLs (https://host:port), for replicas the kubeconfig does not list;
                             they use the context's CA and credentials
  --request-timeout D        how long one request may take (e.g. 30s, 2m; default 30s)`;

/** Where the default kubeconfig is, relative to the working directory (cmd/orch-cluster.ts writes it there). */
export const defaultKubeconfigPath = '.orch/kubeconfig';

/** The longest a request may take when --request-timeout is not given. */
export const defaultRequestTimeoutMs = 30_000;

/** The parsed connection flags. */
export interface ConnectionFlags {
  readonly kubeconfigPath: string;
  readonly context?: string;
  readonly endpoints: readonly string[];
  readonly requestTimeoutMs: number;
}

/** Checks one --endpoints URL: https (or http) with a host and nothing after the port. */
function parseEndpoint(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CtlError(`--endpoints: "${text}" is not a URL such as https://10.0.0.4:6443`, 2);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname.replace(/\/+$/, '') !== '' || url.search !== '') {
    throw new CtlError(`--endpoints: "${text}" is not a replica URL such as https://10.0.0.4:6443`, 2);
  }
  return `${url.protocol}//${url.host}`;
}

/** Reads the connection flags; the kubeconfig is --kubeconfig, else $KUBECONFIG's first file, else .orch/kubeconfig. */
export function connectionFlags(parsed: ParsedArgs, io: CtlIo): ConnectionFlags {
  const fromEnv = io.env['KUBECONFIG']?.split(':').find((p) => p !== '');
  const path = stringOption(parsed, 'kubeconfig') ?? fromEnv ?? defaultKubeconfigPath;
  const endpoints = (stringOption(parsed, 'endpoints') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '').map(parseEndpoint);
  const timeout = stringOption(parsed, 'request-timeout');
  const requestTimeoutMs = timeout === undefined ? defaultRequestTimeoutMs : parseDurationMs(timeout, 'request-timeout');
  if (requestTimeoutMs <= 0) throw new CtlError('--request-timeout must be more than 0', 2);
  const context = stringOption(parsed, 'context');
  return { kubeconfigPath: isAbsolute(path) ? path : resolve(io.cwd, path), ...(context === undefined ? {} : { context }), endpoints, requestTimeoutMs };
}

/** An open connection to a cluster: its servers and the clients over them. Close it when done. */
export class Connection {
  private balanced: OrchClient | undefined;
  private readonly perReplica = new Map<string, OrchClient>();

  private constructor(
    private readonly config: Kubeconfig,
    private readonly contextName: string,
    private readonly userName: string,
    private readonly cluster: KubeconfigCluster,
    /** Every replica URL: the kubeconfig's servers sharing the context's CA, then --endpoints. */
    readonly servers: readonly string[],
    /** The context's namespace (default: `default`). */
    readonly namespace: string,
    readonly requestTimeoutMs: number,
  ) {}

  /** Loads the kubeconfig the flags name. Throws CtlError when it cannot be read or has no such context. */
  static open(flags: ConnectionFlags): Connection {
    if (!existsSync(flags.kubeconfigPath)) {
      throw new CtlError(`no kubeconfig at ${flags.kubeconfigPath}; pass --kubeconfig FILE or set KUBECONFIG (make run writes ${defaultKubeconfigPath})`);
    }
    const config = loadKubeconfig(flags.kubeconfigPath);
    const context = resolveContext(config, flags.context);
    const servers = sameCaServers(config, context).map((s) => s.replace(/\/+$/, ''));
    for (const endpoint of flags.endpoints) if (!servers.includes(endpoint)) servers.push(endpoint);
    const userName = config.contexts.get(context.name)?.user ?? '';
    return new Connection(config, context.name, userName, context.cluster, servers, context.namespace, flags.requestTimeoutMs);
  }

  /** The load-balancing client over every server: object commands and leader-only calls (a follower's 503 is retried elsewhere). */
  client(): OrchClient {
    this.balanced ??= this.clientFor(this.servers);
    return this.balanced;
  }

  /** A client of one replica only, with the same credentials (status, snapshot save from a chosen replica). */
  replicaClient(server: string): OrchClient {
    const url = server.replace(/\/+$/, '');
    let client = this.perReplica.get(url);
    if (client === undefined) {
      client = this.clientFor([url]);
      this.perReplica.set(url, client);
    }
    return client;
  }

  /** A signal that aborts a request after --request-timeout. */
  requestSignal(): AbortSignal {
    return AbortSignal.timeout(this.requestTimeoutMs);
  }

  /** The request timeout as the user would write it, for error messages. */
  get requestTimeoutText(): string {
    return this.requestTimeoutMs % 1000 === 0 ? `${this.requestTimeoutMs / 1000}s` : `${this.requestTimeoutMs}ms`;
  }

  /** Closes every client. */
  async close(): Promise<void> {
    const clients = [...this.perReplica.values(), ...(this.balanced === undefined ? [] : [this.balanced])];
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }

  /**
   * A client over `servers` through OrchClient.fromKubeconfig: the kubeconfig narrowed to one
   * cluster entry per server (all with the context's CA) and the context's own user.
   */
  private clientFor(servers: readonly string[]): OrchClient {
    const clusters = new Map(servers.map((server, i): [string, KubeconfigCluster] => [`orchctl-${i}`, { ...this.cluster, server }]));
    const narrowed: Kubeconfig = {
      ...this.config,
      clusters,
      contexts: new Map([[this.contextName, { cluster: 'orchctl-0', user: this.userName, namespace: this.namespace }]]),
      currentContext: this.contextName,
    };
    return OrchClient.fromKubeconfig(narrowed, { context: this.contextName });
  }
}

/** Opens a connection from parsed flags, runs `body`, and always closes it; `hints` say what to do about the API errors the command may meet. */
export async function withConnection<T>(parsed: ParsedArgs, io: CtlIo, body: (connection: Connection) => Promise<T>, hints?: ApiHints): Promise<T> {
  const connection = Connection.open(connectionFlags(parsed, io));
  try {
    return await body(connection);
  } catch (error) {
    throw toCtlError(error, connection.requestTimeoutText, hints);
  } finally {
    await connection.close();
  }
}
