// What authorization costs on the write path: ConfigMap creates by a service account that RBAC
// authorizes (a Role and RoleBinding in its namespace, its token from TokenRequest) against the
// same creates by the admin (system:masters, allowed before RBAC is asked), in the same run,
// alternated A-B-B-A so that neither side gets the warmer half of the run.
import { alternatedCreates } from './create-phases.ts';
import type { LoadResult } from './load.ts';
import { configMap, OrchClient } from './orch-client.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import { formatNumber, makeRow, ratio, type BenchRow } from './stats.ts';

export interface RbacBenchOptions {
  readonly creates: number;
  readonly concurrency: number;
  readonly phaseMsMax: number;
  readonly connections: number;
  readonly requestTimeoutMs: number;
}

export interface RbacBenchResult {
  readonly admin: LoadResult;
  readonly serviceAccount: LoadResult;
}

/** The service account's namespace: its Role lets it create ConfigMaps there. */
const namespace = 'bench-rbac';

/** Where a benchmark's service account lives. */
export interface ServiceAccountPlace {
  readonly namespace: string;
  readonly serviceAccount: string;
  /** What its Role lets it do with ConfigMaps in its namespace (default create). */
  readonly configMapVerbs?: readonly string[];
}

/** The RBAC benchmark's service account (the c=64 service-account point uses it too). */
export const benchServiceAccount: ServiceAccountPlace = { namespace, serviceAccount: 'bench-writer' };
/** The target named in issue 22: the RBAC-authorized user at 0.9x the admin's create rate or better. */
const rbacTargetRatio = 0.9;

/** The service account, its Role (create configmaps) and RoleBinding, and a one-hour token for it. */
async function serviceAccountToken(admin: OrchClient, where: ServiceAccountPlace): Promise<string> {
  const { namespace, serviceAccount } = where;
  await ensureNamespace(admin, namespace);
  const ok = [200, 201, 409];
  await admin.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: serviceAccount } }, ok);
  await admin.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'configmap-writer' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: where.configMapVerbs ?? ['create'] }],
  }, ok);
  await admin.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: `configmap-writer-${serviceAccount}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-writer' },
    subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
  }, ok);
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } };
  const answer = await admin.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`, request, [201]) as { status?: { token?: unknown } };
  if (typeof answer.status?.token !== 'string') throw new Error('TokenRequest answered no token');
  return answer.status.token;
}

/** Waits until every replica's RBAC index lets the service account create (each follows the store on its own). */
async function awaitGrant(clients: readonly OrchClient[], deadlineMs: number, namespace: string): Promise<void> {
  for (const [i, client] of clients.entries()) {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.call('POST', `/api/v1/namespaces/${namespace}/configmaps`, configMap(`grant-check-${i}-${attempt}`, 16), [201]);
        break;
      } catch (err) {
        if (performance.now() > deadlineMs) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}

/**
 * A client per replica acting as the service account `where` (set up by serviceAccountToken), once
 * every replica lets it create; the caller closes them. Closes them itself when the grant never comes.
 */
export async function serviceAccountClients(target: OrchTarget, options: { readonly connections: number; readonly timeoutMs: number }, where: ServiceAccountPlace = benchServiceAccount): Promise<OrchClient[]> {
  return (await serviceAccountSession(target, options, where)).clients;
}

/** serviceAccountClients, with the token they send (for a client in another process). */
export async function serviceAccountSession(target: OrchTarget, options: { readonly connections: number; readonly timeoutMs: number }, where: ServiceAccountPlace): Promise<{ readonly clients: OrchClient[]; readonly token: string }> {
  const token = await serviceAccountToken(pickClient(target, 0), where);
  const clients = target.cluster.replicas.map((r) => new OrchClient(r.apiUrl, target.cluster.caPem, token, options));
  try {
    await awaitGrant(clients, performance.now() + 30_000, where.namespace);
    return { clients, token };
  } catch (error) {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    throw error;
  }
}

export async function runRbacBench(target: OrchTarget, options: RbacBenchOptions): Promise<RbacBenchResult> {
  const saClients = await serviceAccountClients(target, { connections: options.connections, timeoutMs: options.requestTimeoutMs });
  try {
    const { a, b } = await alternatedCreates({ clients: target.clients, namespace, prefix: 'admin-' }, { clients: saClients, namespace, prefix: 'sa-' }, options.creates, options);
    return { admin: a, serviceAccount: b };
  } finally {
    await Promise.all(saClients.map((c) => c.close().catch(() => undefined)));
  }
}

export function rbacRows(result: RbacBenchResult, concurrency: number): BenchRow[] {
  return [
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, admin (system:masters)`, unit: 'ops/s', orch: result.admin.opsPerSecond }),
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, service account via RBAC`, unit: 'ops/s', orch: result.serviceAccount.opsPerSecond }),
  ];
}

/** The target line: the RBAC user's create rate against the admin's. */
export function rbacNotes(result: RbacBenchResult): string[] {
  const r = ratio(result.serviceAccount.opsPerSecond, result.admin.opsPerSecond);
  const errors = result.admin.errors + result.serviceAccount.errors;
  return [
    `target: RBAC-authorized service account creates >= ${rbacTargetRatio}x the admin's: ${r !== null && r >= rbacTargetRatio ? 'met' : 'missed'} (${formatNumber(r)}x)`,
    ...(errors > 0 ? [`rbac: ${errors} creates failed (${result.admin.firstError ?? result.serviceAccount.firstError ?? ''})`] : []),
  ];
}
