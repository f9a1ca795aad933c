// Issue 20's kubectl acceptance against a real 3-process cluster: kubectl's generators for the
// groups orch added, apply --prune, explain at depth, Events of both groups, per-kind field
// selectors and Service allocation, each step through a different replica than the one it checks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlOn, succeeded, type KubectlOn } from '../support/kubectl-runner.ts';

let fixture: ClusterFixture;
let kubectl: KubectlOn;

before(async () => {
  fixture = await startClusterFixture();
  kubectl = kubectlOn(fixture);
});

after(async () => {
  await fixture?.close();
});

/** kubectl through `replica`, which must succeed; its stdout. */
async function ok(replica: number, args: readonly string[], input?: string): Promise<string> {
  return succeeded(await kubectl(replica, args, input), `${args.join(' ')} (replica ${replica % 3})`);
}

/** `kubectl get <what> -o yaml` through `replica`, parsed as the shape the caller reads. */
async function getYaml<T>(replica: number, what: readonly string[]): Promise<T> {
  return parse(await ok(replica, ['get', ...what, '-o', 'yaml'])) as T;
}

interface PodTemplate { spec: { restartPolicy?: string; containers: [{ image: string; command?: string[] }] } }
interface Job { spec: { backoffLimit: number; template: PodTemplate } }
interface CronJob { spec: { schedule: string; concurrencyPolicy: string; jobTemplate: Job } }
interface Service { spec: { type: string; clusterIP: string; clusterIPs: string[]; ipFamilies: string[]; ipFamilyPolicy: string; ports: [{ name: string; port: number; protocol: string; targetPort: number; nodePort: number }] } }
interface Endpoints { subsets: { addresses: { ip: string }[]; ports: { name: string; port: number }[] }[] }

test('kubectl create job, cronjob, ingress, role, priorityclass and pdb through one replica read back as YAML through another', async () => {
  assert.match(await ok(0, ['create', 'job', 'once', '--image=busybox:1.36', '--', 'echo', 'hi']), /job.batch\/once created/);
  const job = await getYaml<Job>(1, ['job', 'once']);
  assert.deepEqual(job.spec.template.spec.containers[0].command, ['echo', 'hi']);
  assert.equal(job.spec.template.spec.restartPolicy, 'Never');
  assert.equal(job.spec.backoffLimit, 6);

  assert.match(await ok(1, ['create', 'cronjob', 'nightly', '--image=busybox:1.36', '--schedule=0 3 * * *', '--', 'date']), /cronjob.batch\/nightly created/);
  const cronJob = await getYaml<CronJob>(2, ['cronjob', 'nightly']);
  assert.equal(cronJob.spec.schedule, '0 3 * * *');
  assert.equal(cronJob.spec.concurrencyPolicy, 'Allow');
  assert.equal(cronJob.spec.jobTemplate.spec.template.spec.containers[0].image, 'busybox:1.36');

  assert.match(await ok(2, ['create', 'ingress', 'site', '--rule=example.com/shop*=shop:8080']), /ingress.networking.k8s.io\/site created/);
  const ingress = await getYaml<{ spec: { rules: unknown } }>(0, ['ingress', 'site']);
  assert.deepEqual(ingress.spec.rules, [{ host: 'example.com', http: { paths: [{ path: '/shop', pathType: 'Prefix', backend: { service: { name: 'shop', port: { number: 8080 } } } }] } }]);

  assert.match(await ok(0, ['create', 'role', 'reader', '--verb=get,list', '--resource=pods,deployments.apps']), /role.rbac.authorization.k8s.io\/reader created/);
  const role = await getYaml<{ rules: unknown }>(1, ['role', 'reader']);
  assert.deepEqual(role.rules, [
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
  ]);

  assert.match(await ok(1, ['create', 'priorityclass', 'urgent', '--value=1000', '--description=first in line']), /priorityclass.scheduling.k8s.io\/urgent created/);
  const priorityClass = await getYaml<{ value: number; description: string; preemptionPolicy: string }>(2, ['priorityclass', 'urgent']);
  assert.equal(priorityClass.value, 1000);
  assert.equal(priorityClass.description, 'first in line');
  assert.equal(priorityClass.preemptionPolicy, 'PreemptLowerPriority');

  assert.match(await ok(2, ['create', 'pdb', 'keep-one', '--selector=app=shop', '--min-available=1']), /poddisruptionbudget.policy\/keep-one created/);
  const pdb = await getYaml<{ spec: { minAvailable: number; selector: unknown } }>(0, ['pdb', 'keep-one']);
  assert.equal(pdb.spec.minAvailable, 1);
  assert.deepEqual(pdb.spec.selector, { matchLabels: { app: 'shop' } });
});

test('kubectl apply --prune removes what was dropped from the directory and keeps the rest', async () => {
  const dir = join(fixture.dataDir, 'prune');
  mkdirSync(dir);
  await ok(0, ['create', 'namespace', 'prune']);
  const configMap = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'x' } }, data: { name } });
  writeFileSync(join(dir, 'a.json'), configMap('a'));
  writeFileSync(join(dir, 'b.json'), configMap('b'));
  writeFileSync(join(dir, 'web.json'), JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'x' } },
    spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } },
  }));
  const applied = await ok(1, ['apply', '-n', 'prune', '--prune', '-l', 'app=x', '-f', dir]);
  assert.match(applied, /configmap\/a created/);
  assert.match(applied, /deployment.apps\/web created/);
  // An object of the same label that apply did not create (no last-applied annotation) is kept, as kubectl keeps it.
  await ok(2, ['create', 'configmap', 'stray', '-n', 'prune']);
  await ok(0, ['label', 'configmap', 'stray', 'app=x', '-n', 'prune']);

  // Without --prune-allowlist kubectl walks its default list of kinds, every one of which must be served.
  rmSync(join(dir, 'b.json'));
  const pruned = await ok(2, ['apply', '-n', 'prune', '--prune', '-l', 'app=x', '-f', dir]);
  assert.match(pruned, /configmap\/b pruned/);
  assert.doesNotMatch(pruned, /stray/);
  assert.equal((await ok(0, ['get', 'configmaps,deployments', '-n', 'prune', '-l', 'app=x', '-o', 'name'])).trim(), 'configmap/a\nconfigmap/stray\ndeployment.apps/web');

  rmSync(join(dir, 'web.json'));
  const allowlisted = await ok(1, ['apply', '-n', 'prune', '--prune', '-l', 'app=x', '--prune-allowlist=core/v1/ConfigMap', '--prune-allowlist=apps/v1/Deployment', '-f', dir]);
  assert.match(allowlisted, /deployment.apps\/web pruned/);
  assert.equal((await ok(2, ['get', 'configmaps,deployments', '-n', 'prune', '-l', 'app=x', '-o', 'name'])).trim(), 'configmap/a\nconfigmap/stray');
});

/** A definition's property description in the vendored v1.28 OpenAPI v3 document `file`. */
function officialDescription(file: string, definition: string, property: string): string {
  const document = JSON.parse(readFileSync(new URL(`../../third_party/kubernetes-api-v1.28/openapi/v3/${file}`, import.meta.url), 'utf8')) as {
    components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
  };
  const description = document.components.schemas[definition]?.properties[property]?.description;
  assert.ok(description, `${definition}.${property} has a description in ${file}`);
  return description;
}

/** Text with every run of white space made one space: kubectl explain wraps lines at its width. */
const words = (text: string): string => text.replace(/\s+/g, ' ').trim();

test('kubectl explain shows the official descriptions at depth', async () => {
  const resources = words(await ok(0, ['explain', 'pod.spec.containers.resources']));
  assert.match(resources, /FIELD: resources <ResourceRequirements>/);
  assert.ok(resources.includes(words(officialDescription('api__v1_openapi.json', 'io.k8s.api.core.v1.Container', 'resources'))), resources);
  assert.ok(resources.includes(words(officialDescription('api__v1_openapi.json', 'io.k8s.api.core.v1.ResourceRequirements', 'limits'))), resources);

  const rollingUpdate = await ok(1, ['explain', 'deployment.spec.strategy.rollingUpdate', '--recursive']);
  assert.match(rollingUpdate, /^GROUP:\s+apps$/m);
  assert.ok(words(rollingUpdate).includes(words(officialDescription('apis__apps__v1_openapi.json', 'io.k8s.api.apps.v1.DeploymentStrategy', 'rollingUpdate'))), rollingUpdate);
  assert.match(rollingUpdate, /^\s+maxSurge\s+<IntOrString>$/m);
  assert.match(rollingUpdate, /^\s+maxUnavailable\s+<IntOrString>$/m);
});

test('kubectl get events lists Events written through core/v1 and through events.k8s.io/v1 alike', async () => {
  await ok(0, ['create', 'namespace', 'evs']);
  const coreEvent = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'core-made', namespace: 'evs' },
    involvedObject: { kind: 'Pod', name: 'p1', namespace: 'evs' },
    reason: 'CoreReason',
    message: 'written through core/v1',
    type: 'Normal',
    source: { component: 'acceptance' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-03T00:00:00Z',
    count: 2,
  };
  const structuredEvent = (namespace: string, name: string, reason: string) => ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace },
    regarding: { kind: 'Pod', name: 'p2', namespace },
    reason,
    note: 'written through events.k8s.io/v1',
    type: 'Warning',
    action: 'Checking',
    reportingController: 'example.com/acceptance',
    reportingInstance: 'acceptance-1',
    eventTime: '2024-01-02T00:00:00.000000Z',
  });
  assert.match(await ok(0, ['create', '-f', '-'], JSON.stringify(coreEvent)), /event\/core-made created/);
  assert.match(await ok(1, ['create', '-f', '-'], JSON.stringify(structuredEvent('evs', 'structured', 'StructuredReason'))), /event.events.k8s.io\/structured created/);
  assert.match(await ok(2, ['create', '-f', '-'], JSON.stringify(structuredEvent('default', 'elsewhere', 'ElsewhereReason'))), /event.events.k8s.io\/elsewhere created/);

  const inNamespace = await ok(2, ['get', 'events', '-n', 'evs']);
  assert.match(inNamespace, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
  assert.match(inNamespace, /^\S+\s+Normal\s+CoreReason\s+pod\/p1\s+written through core\/v1$/m);
  assert.match(inNamespace, /^\S+\s+Warning\s+StructuredReason\s+pod\/p2\s+written through events.k8s.io\/v1$/m);
  // One store, one table: kube-apiserver prints both versions' Events with the same columns and values.
  assert.equal(await ok(0, ['get', 'events.v1.events.k8s.io', '-n', 'evs']), inNamespace);

  const everywhere = await ok(1, ['get', 'events', '-A']);
  for (const row of [/^evs\s+\S+\s+Normal\s+CoreReason\s/m, /^evs\s+\S+\s+Warning\s+StructuredReason\s/m, /^default\s+\S+\s+Warning\s+ElsewhereReason\s/m]) assert.match(everywhere, row);

  const byReason = await ok(0, ['get', 'events', '-A', '--field-selector', 'reason=StructuredReason', '-o', 'name']);
  assert.equal(byReason.trim(), 'event/structured');
  const coreByReason = await ok(1, ['get', 'events.events.k8s.io', '-n', 'evs', '--field-selector', 'reason=CoreReason', '-o', 'name']);
  assert.equal(coreByReason.trim(), 'event.events.k8s.io/core-made');
});

test('kubectl get --field-selector selects pods by node and phase and nodes by unschedulable, and refuses an unsupported label', async () => {
  const node = (name: string, unschedulable?: boolean) => JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name }, ...(unschedulable === undefined ? {} : { spec: { unschedulable } }) });
  await ok(0, ['create', '-f', '-'], node('fs-open', false));
  await ok(1, ['create', '-f', '-'], node('fs-cordoned', true));
  await ok(2, ['create', '-f', '-'], node('fs-plain'));
  await ok(0, ['create', 'namespace', 'fs']);
  const pod = (name: string, nodeName: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'fs' }, spec: { nodeName, containers: [{ name: 'c', image: 'nginx:1.25' }] } });
  await ok(1, ['create', '-f', '-'], pod('pending-on-open', 'fs-open'));
  await ok(2, ['create', '-f', '-'], pod('running-on-open', 'fs-open'));
  await ok(0, ['create', '-f', '-'], pod('pending-on-cordoned', 'fs-cordoned'));
  await ok(1, ['patch', 'pod', 'running-on-open', '-n', 'fs', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running"}}']);

  assert.equal((await ok(2, ['get', 'pods', '-n', 'fs', '--field-selector', 'spec.nodeName=fs-open,status.phase=Pending', '-o', 'name'])).trim(), 'pod/pending-on-open');
  assert.equal((await ok(0, ['get', 'pods', '-A', '--field-selector', 'spec.nodeName!=fs-open', '-o', 'name'])).trim(), 'pod/pending-on-cordoned');
  const schedulable = (await ok(1, ['get', 'nodes', '--field-selector', 'spec.unschedulable=false', '-o', 'name'])).trim().split('\n');
  assert.deepEqual(schedulable.filter((n) => n.startsWith('node/fs-')).sort(), ['node/fs-open', 'node/fs-plain']);
  assert.equal((await ok(2, ['get', 'nodes', '--field-selector', 'spec.unschedulable==true', '-o', 'name'])).trim(), 'node/fs-cordoned');

  const unsupported = await kubectl(0, ['get', 'pods', '-n', 'fs', '--field-selector', 'spec.bogus=x']);
  assert.notEqual(unsupported.code, 0);
  assert.match(unsupported.stderr, /Error from server \(BadRequest\):.*field label not supported: spec\.bogus/);
  const wrongKind = await kubectl(1, ['get', 'nodes', '--field-selector', 'spec.nodeName=fs-open']);
  assert.match(wrongKind.stderr, /Error from server \(BadRequest\):.*field label not supported: spec\.nodeName/);
});

/** Whether `ip` lies in kubeadm's default service CIDR, 10.96.0.0/12, which orch defaults to too. */
const inServiceRange = (ip: string): boolean => /^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/.test(ip);
/** Whether `port` lies in kube-apiserver's default --service-node-port-range, 30000-32767. */
const inNodePortRange = (port: number): boolean => Number.isInteger(port) && port >= 30000 && port <= 32767;

test('a NodePort Service gets a node port and a cluster IP, and concurrent creates through different replicas never share one', async () => {
  assert.match(await ok(0, ['create', 'service', 'nodeport', 'shop', '--tcp=80:8080']), /service\/shop created/);
  const service = await getYaml<Service>(1, ['service', 'shop']);
  assert.equal(service.spec.type, 'NodePort');
  assert.ok(inServiceRange(service.spec.clusterIP), service.spec.clusterIP);
  assert.deepEqual(service.spec.clusterIPs, [service.spec.clusterIP]);
  assert.deepEqual(service.spec.ipFamilies, ['IPv4']);
  assert.equal(service.spec.ipFamilyPolicy, 'SingleStack');
  assert.equal(service.spec.ports[0].targetPort, 8080);
  assert.ok(inNodePortRange(service.spec.ports[0].nodePort), String(service.spec.ports[0].nodePort));
  assert.match(await ok(2, ['get', 'service', 'shop']), new RegExp(`^shop\\s+NodePort\\s+${service.spec.clusterIP.replaceAll('.', '\\.')}\\s+<none>\\s+80:${service.spec.ports[0].nodePort}/TCP\\s`, 'm'));

  await ok(1, ['create', 'namespace', 'alloc']);
  const perReplica = 8;
  const created = await Promise.all(fixture.clients.flatMap((client, replica) => Array.from({ length: perReplica }, (_, i) => client.call('POST', '/api/v1/namespaces/alloc/services', {
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: `s-${replica}-${i}` }, spec: { type: 'NodePort', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] } },
  }))));
  for (const res of created) assert.equal(res.status, 201, res.text);
  const specs = created.map((res) => (res.json as { spec: { clusterIP: string; ports: { nodePort: number }[] } }).spec);
  const ips = specs.map((s) => s.clusterIP);
  const ports = specs.flatMap((s) => s.ports.map((p) => p.nodePort));
  assert.ok(ips.every(inServiceRange) && ports.every(inNodePortRange), JSON.stringify(specs));
  assert.equal(new Set([...ips, service.spec.clusterIP, '10.96.0.1']).size, ips.length + 2, `cluster IPs repeat: ${ips.join(' ')}`);
  assert.equal(new Set([...ports, service.spec.ports[0].nodePort]).size, ports.length + 1, `node ports repeat: ${ports.join(' ')}`);
});

test('the kubernetes Service and its Endpoints in default list the replicas', async () => {
  const service = await getYaml<Service>(2, ['service', 'kubernetes', '-n', 'default']);
  assert.equal(service.spec.clusterIP, '10.96.0.1');
  assert.deepEqual(service.spec.ports.map((p) => [p.name, p.port, p.protocol]), [['https', 443, 'TCP']]);
  const endpoints = await getYaml<Endpoints>(0, ['endpoints', 'kubernetes', '-n', 'default']);
  const listed = endpoints.subsets.flatMap((subset) => subset.addresses.flatMap((a) => subset.ports.map((p) => `${p.name} ${a.ip}:${p.port}`)));
  const replicas = fixture.cluster.replicas.map((r) => `https ${new URL(r.apiUrl).host}`);
  assert.deepEqual(listed.sort(), replicas.sort());
});
