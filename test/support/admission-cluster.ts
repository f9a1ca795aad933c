// The one 3-process cluster an admission end-to-end file runs against: kubectl through each
// replica's context, the admin's API client per replica, a temp directory for manifests, and the
// waits a user would do by hand (a namespace's default ServiceAccount, a quota's status).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClusterFixture, type ClusterFixture } from './cluster-fixture.ts';
import { kubectlOn, succeeded, type KubectlOn, type KubectlResult } from './kubectl-runner.ts';
import { eventually } from './auth-https.ts';

/** A running cluster for admission tests; `stop` is for t.after. */
export interface AdmissionCluster {
  readonly fixture: ClusterFixture;
  readonly kubectl: KubectlOn;
  /** Writes `text` to a fresh file under the cluster's temp directory and returns its path. */
  manifest(name: string, text: string): string;
  /** `kubectl apply -f` of `text` (YAML or JSON) through replica `replica`. */
  apply(replica: number, text: string): Promise<KubectlResult>;
  /** Creates namespace `name` with `labels` and waits for its default ServiceAccount. */
  namespace(name: string, labels?: Readonly<Record<string, string>>): Promise<void>;
  stop(): Promise<void>;
}

// One polling helper for the e2e tests.
export { eventually };

/** Starts the cluster with `extraArgs` on every replica. */
export async function startAdmissionCluster(extraArgs: readonly string[] = []): Promise<AdmissionCluster> {
  const fixture = await startClusterFixture({ extraArgs });
  const dir = mkdtempSync(join(tmpdir(), 'orch-e2e-admission-'));
  const kubectl = kubectlOn(fixture);
  let files = 0;
  const manifest = (name: string, text: string): string => {
    const path = join(dir, `${files++}-${name}`);
    writeFileSync(path, text);
    return path;
  };
  return {
    fixture,
    kubectl,
    manifest,
    apply: (replica, text) => kubectl(replica, ['apply', '-f', manifest('manifest.yaml', text)]),
    async namespace(name, labels = {}) {
      const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
      succeeded(await kubectl(0, ['create', '-f', manifest(`${name}.json`, JSON.stringify(body))]), `create namespace ${name}`);
      await eventually(`serviceaccount default in ${name}`, async () => (await fixture.clients[0]?.call('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`))?.status === 200);
    },
    async stop() {
      await fixture.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stderr of a run that must have failed; the assertion names the command and its stdout. */
export function failed(result: KubectlResult, what: string): string {
  assert.notEqual(result.code, 0, `kubectl ${what} succeeded: ${result.stdout}`);
  return result.stderr;
}
