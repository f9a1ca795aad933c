// What auditing costs on the write path: the orch cluster of the benchmark runs with an audit policy
// that logs ConfigMap requests in one namespace at Metadata level (both stages, RequestReceived and
// ResponseComplete, each written to the replica's audit log before the answer leaves) and nothing
// elsewhere. Creates in the audited namespace are measured against the same creates in a namespace
// the policy leaves out, in the same run, alternated A-B-B-A so that neither side gets the warmer
// half of the run.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alternatedConfigMapCreates } from './create-phases.ts';
import type { LoadResult } from './load.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import { formatNumber, makeRow, ratio, type BenchRow } from './stats.ts';

const auditedNamespace = 'bench-audit-metadata';
const plainNamespace = 'bench-audit-none';

/** The goal issue 26 sets: creates audited at Metadata at 0.9x the unaudited ones or better. */
const auditTargetRatio = 0.9;

export interface AuditBenchOptions {
  readonly creates: number;
  readonly concurrency: number;
  readonly phaseMsMax: number;
}

export interface AuditBenchResult {
  readonly withoutAudit: LoadResult;
  readonly withAudit: LoadResult;
  /** Events in the replicas' audit logs once the run ended, and their total size. */
  readonly events: number;
  readonly logBytes: number;
}

/** The replica flags that switch auditing on, with the policy written into `dir`; each replica logs to its own file there. */
export function auditReplicaArgs(dir: string): (name: string) => readonly string[] {
  const policyPath = join(dir, 'audit-policy.yaml');
  writeFileSync(policyPath, [
    'apiVersion: audit.k8s.io/v1',
    'kind: Policy',
    'rules:',
    '- level: Metadata',
    `  namespaces: ["${auditedNamespace}"]`,
    '  resources: [{group: "", resources: ["configmaps"]}]',
    '- level: None',
    '',
  ].join('\n'));
  return (name) => ['--audit-policy-file', policyPath, '--audit-log-path', auditLogOf(dir, name)];
}

function auditLogOf(dir: string, replica: string): string {
  return join(dir, `audit-${replica}.log`);
}

/** Lines and bytes of the replicas' audit logs (a missing log counts nothing). */
function auditLogTotals(dir: string, replicas: readonly string[]): { events: number; logBytes: number } {
  let events = 0;
  let logBytes = 0;
  for (const name of replicas) {
    const path = auditLogOf(dir, name);
    try {
      logBytes += statSync(path).size;
      events += readFileSync(path, 'utf8').split('\n').filter((line) => line !== '').length;
    } catch {
      // No event was written there.
    }
  }
  return { events, logBytes };
}

export async function runAuditBench(target: OrchTarget, auditDir: string, options: AuditBenchOptions): Promise<AuditBenchResult> {
  const admin = pickClient(target, 0);
  await ensureNamespace(admin, plainNamespace);
  await ensureNamespace(admin, auditedNamespace);
  const { a, b } = await alternatedConfigMapCreates(target.clients, { a: plainNamespace, b: auditedNamespace }, options.creates, options);
  return { withoutAudit: a, withAudit: b, ...auditLogTotals(auditDir, target.cluster.replicas.map((r) => r.spec.name)) };
}

export function auditRows(result: AuditBenchResult, concurrency: number): BenchRow[] {
  return [
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, not audited`, unit: 'ops/s', orch: result.withoutAudit.opsPerSecond }),
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, audited at Metadata (log)`, unit: 'ops/s', orch: result.withAudit.opsPerSecond }),
  ];
}

/** The ratio line against the goal. */
export function auditNotes(result: AuditBenchResult): string[] {
  const r = ratio(result.withAudit.opsPerSecond, result.withoutAudit.opsPerSecond);
  const errors = result.withoutAudit.errors + result.withAudit.errors;
  return [
    `audit: creates audited at Metadata run at ${formatNumber(r)}x unaudited ones; target >= ${auditTargetRatio}x: ${r !== null && r >= auditTargetRatio ? 'met' : 'missed'} (${result.events} events, ${result.logBytes} bytes of audit log)`,
    ...(errors > 0 ? [`audit: ${errors} creates failed (${result.withoutAudit.firstError ?? result.withAudit.firstError ?? ''})`] : []),
  ];
}
