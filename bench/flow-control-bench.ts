// What API Priority and Fairness costs a request it queues: ConfigMap creates by a service account
// that the suggested FlowSchemas send to workload-low (classified, its seats counted, admitted
// through the level's queue set) against the same creates by a second service account that a
// FlowSchema sends to the exempt level (classified, then run at once), in the same run, alternated
// A-B-B-A. Both are authorized by the same RoleBinding, so flow control is the only difference.
import { alternatedCreates } from './create-phases.ts';
import type { LoadResult } from './load.ts';
import { configMap, type OrchClient } from './orch-client.ts';
import { pickClient, type OrchTarget } from './orch-target.ts';
import { serviceAccountSession, type RbacBenchOptions } from './rbac-bench.ts';
import { formatNumber, makeRow, ratio, type BenchRow } from './stats.ts';

export interface FlowControlBenchResult {
  /** The service account in workload-low's queues. */
  readonly queued: LoadResult;
  /** The service account a FlowSchema makes exempt. */
  readonly exempt: LoadResult;
}

const namespace = 'bench-apf';
const queuedAccount = 'bench-apf-queued';
const exemptAccount = 'bench-apf-exempt';
const flowSchemaName = 'bench-apf-exempt';
const flowControlApi = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';

/** Sends every request of `exemptAccount` to the exempt level (before the suggested service-accounts schema). */
function exemptFlowSchema(): Record<string, unknown> {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name: flowSchemaName },
    spec: {
      priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 100,
      rules: [{
        subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: exemptAccount, namespace } }],
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }],
      }],
    },
  };
}

/** Waits until every replica classifies the exempt account's creates into the exempt level (each follows the FlowSchemas on its own). */
async function awaitExempt(clients: readonly OrchClient[], exemptLevelUid: string, deadlineMs: number): Promise<void> {
  for (const [i, client] of clients.entries()) {
    for (let attempt = 0; ; attempt++) {
      const { headers } = await client.request('POST', `/api/v1/namespaces/${namespace}/configmaps`, configMap(`exempt-check-${i}-${attempt}`, 16), [201]);
      if (headers['x-kubernetes-pf-prioritylevel-uid'] === exemptLevelUid) break;
      if (performance.now() > deadlineMs) throw new Error(`replica ${i} does not classify ${exemptAccount} as exempt`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export async function runFlowControlBench(target: OrchTarget, options: RbacBenchOptions): Promise<FlowControlBenchResult> {
  const admin = pickClient(target, 0);
  const session = { connections: options.connections, timeoutMs: options.requestTimeoutMs };
  const queued = await serviceAccountSession(target, session, { namespace, serviceAccount: queuedAccount });
  const exempt = await serviceAccountSession(target, session, { namespace, serviceAccount: exemptAccount }).catch(async (error: unknown) => {
    await Promise.all(queued.clients.map((c) => c.close().catch(() => undefined)));
    throw error;
  });
  try {
    await admin.call('POST', `${flowControlApi}/flowschemas`, exemptFlowSchema(), [201, 409]);
    const level = await admin.call('GET', `${flowControlApi}/prioritylevelconfigurations/exempt`) as { metadata?: { uid?: unknown } };
    if (typeof level.metadata?.uid !== 'string') throw new Error('the exempt priority level has no uid');
    await awaitExempt(exempt.clients, level.metadata.uid, performance.now() + 30_000);
    const { a, b } = await alternatedCreates({ clients: queued.clients, namespace, prefix: 'queued-' }, { clients: exempt.clients, namespace, prefix: 'exempt-' }, options.creates, options);
    return { queued: a, exempt: b };
  } finally {
    await admin.call('DELETE', `${flowControlApi}/flowschemas/${flowSchemaName}`, undefined, [200, 404]).catch(() => undefined);
    await Promise.all([...queued.clients, ...exempt.clients].map((c) => c.close().catch(() => undefined)));
  }
}

export function flowControlRows(result: FlowControlBenchResult, concurrency: number): BenchRow[] {
  return [
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, service account exempt from flow control`, unit: 'ops/s', orch: result.exempt.opsPerSecond }),
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, service account through workload-low's queues`, unit: 'ops/s', orch: result.queued.opsPerSecond }),
  ];
}

/** The ratio line: creates through a limited level's queues against exempt ones. */
export function flowControlNotes(result: FlowControlBenchResult): string[] {
  const r = ratio(result.queued.opsPerSecond, result.exempt.opsPerSecond);
  const errors = result.queued.errors + result.exempt.errors;
  return [
    `flow control: creates through workload-low's queues run at ${formatNumber(r)}x those of an exempt service account`,
    ...(errors > 0 ? [`flow control: ${errors} creates failed (${result.queued.firstError ?? result.exempt.firstError ?? ''})`] : []),
  ];
}
