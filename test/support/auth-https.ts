// HTTPS exchanges with a replica for authentication tests: any credential a client can present (a
// bearer token, a raw Authorization header, a client certificate, proxy headers), and the exact
// Status bodies kube-apiserver 1.28 answers a refused request with.
import { request } from 'node:https';
import type { LocalCluster } from '../../internal/cluster/local-cluster.ts';

/** One HTTPS exchange with a replica: status and body text. */
export interface Answer {
  readonly status: number;
  readonly body: string;
}

/** What a request presents and sends. */
export interface Credential {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Other headers, a raw `authorization` among them. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A client certificate and its key (PEM). */
  readonly cert?: string;
  readonly key?: string;
}

/** A request to a replica, with what it presents. */
export interface Call extends Credential {
  readonly method?: string;
  readonly body?: unknown;
}

/** Sends one request to replica `replica` (0-based) over a fresh TLS connection; never throws for an HTTP error status. */
export function callReplica(cluster: LocalCluster, replica: number, path: string, options: Call = {}): Promise<Answer> {
  const url = `${cluster.replicas[replica % cluster.replicas.length]?.apiUrl ?? ''}${path}`;
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const tls = options.cert === undefined ? {} : { cert: options.cert, key: options.key };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers, ca: cluster.caPem, agent: false, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${path}: timed out`)));
    req.end(body);
  });
}

/** The body of every 401: kube's `Unauthorized` Status, nothing more. */
export const unauthorizedStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

/** The Status of RBAC's refusal of `verb` on a core resource in a namespace (responsewriters.Forbidden, no reason from RBAC). */
export function forbiddenStatus(user: string, verb: string, resource: string, namespace: string): unknown {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${resource} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "" in the namespace "${namespace}"`,
    reason: 'Forbidden',
    details: { kind: resource },
    code: 403,
  };
}

/** The body parsed as JSON, or the text itself when it is not JSON (so a deepEqual failure shows it). */
export function parsed(answer: Answer): unknown {
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return answer.body;
  }
}

/** Polls `check` every 100 ms until it is true; throws naming `what` after `timeoutMs`. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
