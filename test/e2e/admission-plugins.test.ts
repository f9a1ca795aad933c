// The compiled-in admission plugins end to end, through kubectl where a user meets them, on one
// real 3-process cluster started with --enable-admission-plugins=AlwaysPullImages and
// --disable-admission-plugins=StorageObjectInUseProtection: LimitRanger defaults and minimums,
// ResourceQuota (the controller's status, refusals in kube's words, release on delete, and its hard
// limit under concurrent creates through every replica), PodSecurity enforce/warn and the namespace
// label warning, NamespaceLifecycle, ServiceAccount, Priority, DefaultTolerationSeconds, and the
// two plugins the flags switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, failed, startAdmissionCluster, type AdmissionCluster } from '../support/admission-cluster.ts';
import { succeeded } from '../support/kubectl-runner.ts';

/** A pod manifest: one container `c` (nginx) with `container` merged in, `spec` merged into the pod's spec. */
function podManifest(name: string, namespace: string, options: { container?: Record<string, unknown>; spec?: Record<string, unknown> } = {}): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace },
    spec: { containers: [{ name: 'c', image: 'nginx', ...(options.container ?? {}) }], ...(options.spec ?? {}) },
  }, null, 2);
}

const privileged = { securityContext: { privileged: true } };

test('admission plugins through kubectl on real replicas: LimitRanger, ResourceQuota, PodSecurity, NamespaceLifecycle, ServiceAccount, Priority, DefaultTolerationSeconds, plugin flags', { timeout: 600_000 }, async (t) => {
  const started: { cluster?: AdmissionCluster } = {};
  t.after(async () => {
    await started.cluster?.stop();
  });
  const c = await startAdmissionCluster(['--enable-admission-plugins=AlwaysPullImages', '--disable-admission-plugins=StorageObjectInUseProtection']);
  started.cluster = c;
  const { kubectl } = c;
  const create = (replica: number, name: string, text: string): ReturnType<typeof kubectl> => kubectl(replica, ['create', '-f', c.manifest(`${name}.json`, text)]);
  const jsonpath = async (replica: number, args: readonly string[], path: string): Promise<string> => succeeded(await kubectl(replica, ['get', ...args, '-o', `jsonpath=${path}`]), `get ${args.join(' ')}`);

  await t.test('LimitRanger: a LimitRange\'s default and defaultRequest appear on a created pod with the kubernetes.io/limit-ranger annotation; a request under min is refused', async () => {
    const ns = 'lr';
    await c.namespace(ns);
    succeeded(await c.apply(0, JSON.stringify({
      apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: ns },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '200m', memory: '128Mi' }, min: { cpu: '100m' } }] },
    })), 'apply limitrange');
    // The LimitRange reaches replica 1's plugin (a server dry run shows the defaults), then the real create.
    const manifest = c.manifest('defaults.json', podManifest('defaults', ns));
    await eventually('LimitRanger sees the LimitRange on replica 1', async () => /kubernetes\.io\/limit-ranger/.test((await kubectl(1, ['create', '-f', manifest, '--dry-run=server', '-o', 'json'])).stdout));
    succeeded(await kubectl(1, ['create', '-f', manifest]), 'create defaults');
    const resources = JSON.parse(await jsonpath(2, ['pod', 'defaults', '-n', ns], '{.spec.containers[0].resources}')) as unknown;
    assert.deepEqual(resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '200m', memory: '128Mi' } });
    const annotation = await jsonpath(0, ['pod', 'defaults', '-n', ns], '{.metadata.annotations.kubernetes\\.io/limit-ranger}');
    assert.equal(annotation, 'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c');
    const refused = failed(await create(2, 'too-small', podManifest('too-small', ns, { container: { resources: { requests: { cpu: '50m' } } } })), 'create too-small');
    assert.match(refused, /^Error from server \(Forbidden\): error when creating ".*too-small\.json": pods "too-small" is forbidden: minimum cpu usage per Container is 100m, but request is 50m$/m);
  });

  await t.test('ResourceQuota: status.hard from the controller, creates up to the limit, kube\'s refusal, describe shows Used/Hard, a delete releases the quota', async () => {
    const ns = 'rq';
    await c.namespace(ns);
    succeeded(await c.apply(0, JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: ns }, spec: { hard: { pods: '2', 'count/configmaps': '3' } } })), 'apply quota');
    await eventually('status.hard set by the quota controller', async () => (await jsonpath(1, ['resourcequota', 'q', '-n', ns], '{.status.hard.pods}')) === '2');
    succeeded(await kubectl(0, ['run', 'p1', '-n', ns, '--image=nginx']), 'run p1');
    succeeded(await kubectl(1, ['run', 'p2', '-n', ns, '--image=nginx']), 'run p2');
    const refused = failed(await kubectl(2, ['run', 'p3', '-n', ns, '--image=nginx']), 'run p3');
    assert.equal(refused.trim(), 'Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
    // ConfigMaps: the namespace's kube-root-ca.crt counts too.
    const used = Number(await jsonpath(0, ['resourcequota', 'q', '-n', ns], '{.status.used.count/configmaps}'));
    for (let i = used; i < 3; i++) succeeded(await kubectl(i % 3, ['create', 'configmap', `cm-${i}`, '-n', ns, '--from-literal=a=b']), `create cm-${i}`);
    const refusedConfigMap = failed(await kubectl(1, ['create', 'configmap', 'cm-over', '-n', ns, '--from-literal=a=b']), 'create cm-over');
    assert.equal(refusedConfigMap.trim(), 'error: failed to create configmap: configmaps "cm-over" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited: count/configmaps=3');
    await eventually('describe shows the usage', async () => {
      const described = succeeded(await kubectl(2, ['describe', 'quota', 'q', '-n', ns]), 'describe quota');
      return /^Resource\s+Used\s+Hard$/m.test(described) && /^pods\s+2\s+2$/m.test(described) && /^count\/configmaps\s+3\s+3$/m.test(described);
    });
    succeeded(await kubectl(0, ['delete', 'pod', 'p1', '-n', ns]), 'delete p1');
    await eventually('used pods drops to 1', async () => (await jsonpath(1, ['resourcequota', 'q', '-n', ns], '{.status.used.pods}')) === '1', 10_000);
    succeeded(await kubectl(2, ['run', 'p3', '-n', ns, '--image=nginx']), 'run p3 after the release');
  });

  await t.test('ResourceQuota under 30 concurrent creates spread over the three replicas never admits past its hard limit', async () => {
    const ns = 'rq-race';
    const hard = 10;
    await c.namespace(ns);
    succeeded(await c.apply(0, JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'race', namespace: ns }, spec: { hard: { 'count/configmaps': String(hard) } } })), 'apply quota');
    await eventually('status.hard set', async () => (await jsonpath(1, ['resourcequota', 'race', '-n', ns], '{.status.hard.count/configmaps}')) === String(hard));
    const listed = async (): Promise<number> => ((await c.fixture.clients[0]!.call('GET', `/api/v1/namespaces/${ns}/configmaps`)).json as { items: unknown[] }).items.length;
    const before = await listed();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => c.fixture.clients[i % 3]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `race-${i}` } } })));
    const admitted = answers.filter((a) => a.status === 201).length;
    const refusals = answers.filter((a) => a.status !== 201);
    for (const refusal of refusals) {
      assert.equal(refusal.status, 403, refusal.text);
      assert.match((refusal.json as { message: string }).message, /^configmaps "race-\d+" is forbidden: exceeded quota: race, requested: count\/configmaps=1, used: count\/configmaps=\d+, limited: count\/configmaps=10$/);
    }
    const stored = await listed();
    assert.ok(stored <= hard, `${stored} configmaps stored against a hard limit of ${hard}`);
    assert.equal(stored, before + admitted, 'every admitted create is stored, nothing else');
    await eventually('status.used matches what is stored', async () => (await jsonpath(2, ['resourcequota', 'race', '-n', ns], '{.status.used.count/configmaps}')) === String(stored));
  });

  await t.test('ResourceQuota (configmaps) under 30 concurrent creates admits exactly up to its hard limit', async () => {
    const ns = 'rq-fill';
    const hard = 10;
    await c.namespace(ns);
    succeeded(await c.apply(1, JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'fill', namespace: ns }, spec: { hard: { configmaps: String(hard) } } })), 'apply quota');
    await eventually('status.hard set', async () => (await jsonpath(1, ['resourcequota', 'fill', '-n', ns], '{.status.hard.configmaps}')) === String(hard));
    await Promise.all(Array.from({ length: 30 }, (_, i) => c.fixture.clients[i % 3]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `fill-${i}` } } })));
    const stored = ((await c.fixture.clients[0]!.call('GET', `/api/v1/namespaces/${ns}/configmaps`)).json as { items: unknown[] }).items.length;
    assert.equal(stored, hard);
  });

  await t.test('PodSecurity: enforce=restricted refuses a privileged pod in kube\'s words; warn=baseline warns; labelling a namespace with privileged pods enforce=restricted warns', async () => {
    await c.namespace('ps-enforce', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const refused = failed(await create(1, 'priv-enforce', podManifest('priv', 'ps-enforce', { container: privileged })), 'create privileged pod');
    assert.match(refused, /^Error from server \(Forbidden\): error when creating ".*priv-enforce\.json": pods "priv" is forbidden: (.*)$/m);
    assert.equal(/pods "priv" is forbidden: (.*)$/m.exec(refused)?.[1], 'violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
    const compliant = { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };
    succeeded(await create(2, 'restricted-ok', podManifest('fine', 'ps-enforce', { container: compliant })), 'create a restricted pod');

    await c.namespace('ps-warn', { 'pod-security.kubernetes.io/warn': 'baseline' });
    const warned = await create(0, 'priv-warn', podManifest('priv', 'ps-warn', { container: privileged }));
    succeeded(warned, 'create privileged pod under warn');
    assert.match(warned.stderr, /^Warning: would violate PodSecurity "baseline:latest": privileged \(container "c" must not set securityContext\.privileged=true\)$/m);

    const labelled = await kubectl(1, ['label', 'namespace', 'ps-warn', 'pod-security.kubernetes.io/enforce=restricted']);
    assert.match(succeeded(labelled, 'label ps-warn'), /namespace\/ps-warn labeled/);
    assert.match(labelled.stderr, /^Warning: existing pods in namespace "ps-warn" violate the new PodSecurity enforce level "restricted:latest"$/m);
    assert.match(labelled.stderr, /^Warning: priv: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile$/m);
  });

  await t.test('NamespaceLifecycle: a create in a missing namespace is 404 `namespaces "x" not found`; default, kube-system and kube-public may not be deleted (403)', async () => {
    const missing = failed(await kubectl(0, ['create', 'configmap', 'nowhere', '-n', 'no-such-ns', '--from-literal=a=b']), 'create in a missing namespace');
    assert.equal(missing.trim(), 'error: failed to create configmap: namespaces "no-such-ns" not found');
    const answer = await c.fixture.clients[1]!.call('POST', '/api/v1/namespaces/no-such-ns/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nowhere' } } });
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'namespaces "no-such-ns" not found', reason: 'NotFound', details: { name: 'no-such-ns', kind: 'namespaces' }, code: 404 });
    for (const name of ['default', 'kube-system', 'kube-public']) {
      // A server dry run first, so that a defect cannot take the namespace away from the other sub-tests.
      const dry = await c.fixture.clients[2]!.call('DELETE', `/api/v1/namespaces/${name}?dryRun=All`);
      assert.equal(dry.status, 403, `${name}: ${dry.text}`);
      assert.deepEqual(dry.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `namespaces "${name}" is forbidden: this namespace may not be deleted`, reason: 'Forbidden', details: { name, kind: 'namespaces' }, code: 403 });
      const refused = failed(await kubectl(2, ['delete', 'namespace', name]), `delete namespace ${name}`);
      assert.equal(refused.trim(), `Error from server (Forbidden): namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
  });

  await t.test('ServiceAccount: a pod gets serviceAccountName default and the projected kube-api-access-* volume and its mount', async () => {
    const ns = 'sa';
    await c.namespace(ns);
    succeeded(await kubectl(1, ['run', 'sa-pod', '-n', ns, '--image=nginx']), 'run sa-pod');
    const pod = JSON.parse(succeeded(await kubectl(2, ['get', 'pod', 'sa-pod', '-n', ns, '-o', 'json']), 'get sa-pod')) as {
      spec: { serviceAccountName: string; serviceAccount?: string; volumes: { name: string; projected?: { sources: unknown[]; defaultMode?: number } }[]; containers: { volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[] }[] };
    };
    assert.equal(pod.spec.serviceAccountName, 'default');
    const volume = pod.spec.volumes.find((v) => v.name.startsWith('kube-api-access-'));
    assert.ok(volume !== undefined, `a kube-api-access volume: ${JSON.stringify(pod.spec.volumes)}`);
    assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.deepEqual(volume.projected, {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    assert.deepEqual(pod.spec.containers[0]?.volumeMounts, [{ name: volume.name, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }]);
  });

  await t.test('Priority: an unknown priorityClassName is refused; system-cluster-critical gets its value', async () => {
    const ns = 'prio';
    await c.namespace(ns);
    const refused = failed(await create(0, 'prio-unknown', podManifest('unknown', ns, { spec: { priorityClassName: 'no-such-class' } })), 'create with an unknown class');
    assert.match(refused, /^Error from server \(Forbidden\): error when creating ".*prio-unknown\.json": pods "unknown" is forbidden: no PriorityClass with name no-such-class was found$/m);
    succeeded(await create(1, 'prio-critical', podManifest('critical', ns, { spec: { priorityClassName: 'system-cluster-critical' } })), 'create critical');
    assert.equal(await jsonpath(2, ['pod', 'critical', '-n', ns], '{.spec.priority}'), '2000000000');
    assert.equal(await jsonpath(2, ['pod', 'critical', '-n', ns], '{.spec.preemptionPolicy}'), 'PreemptLowerPriority');
    // No class and no global default: priority 0.
    succeeded(await kubectl(0, ['run', 'plain', '-n', ns, '--image=nginx']), 'run plain');
    assert.equal(await jsonpath(1, ['pod', 'plain', '-n', ns], '{.spec.priority}'), '0');
  });

  await t.test('DefaultTolerationSeconds: not-ready and unreachable NoExecute tolerations of 300 s are added', async () => {
    const ns = 'tolerations';
    await c.namespace(ns);
    succeeded(await kubectl(2, ['run', 'tolerant', '-n', ns, '--image=nginx']), 'run tolerant');
    const tolerations = JSON.parse(await jsonpath(0, ['pod', 'tolerant', '-n', ns], '{.spec.tolerations}')) as unknown;
    assert.deepEqual(tolerations, [
      { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
      { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
    ]);
  });

  await t.test('plugin flags: AlwaysPullImages (enabled by flag) sets imagePullPolicy Always; StorageObjectInUseProtection (disabled by flag) adds no finalizer', async () => {
    const ns = 'flags';
    await c.namespace(ns);
    const manifest = JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pull', namespace: ns },
      spec: { initContainers: [{ name: 'init', image: 'busybox', imagePullPolicy: 'Never' }], containers: [{ name: 'c', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' }] },
    });
    succeeded(await create(0, 'pull', manifest), 'create pull');
    assert.equal(await jsonpath(1, ['pod', 'pull', '-n', ns], '{.spec.containers[0].imagePullPolicy}'), 'Always');
    assert.equal(await jsonpath(1, ['pod', 'pull', '-n', ns], '{.spec.initContainers[0].imagePullPolicy}'), 'Always');
    succeeded(await create(1, 'claim', JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim', namespace: ns },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    })), 'create claim');
    assert.equal(await jsonpath(2, ['pvc', 'claim', '-n', ns], '{.metadata.finalizers}'), '');
  });
  await t.test('NamespaceLifecycle: no new content in a terminating namespace (403, cause NamespaceTerminating)', async () => {
    const ns = 'ending';
    await c.namespace(ns);
    succeeded(await create(0, 'held', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: ns, finalizers: ['orch.test/hold'] } })), 'create held');
    succeeded(await kubectl(1, ['delete', 'namespace', ns, '--wait=false']), 'delete namespace');
    let last = '';
    await eventually('a create in the terminating namespace is refused through replica 2', async () => {
      const answer = await c.fixture.clients[2]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } } });
      last = answer.text;
      return answer.status === 403;
    }, 10_000).catch((err: unknown) => assert.fail(`${String(err)}: ${last}`));
    assert.deepEqual(JSON.parse(last), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
      message: `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      details: { name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }] },
    });
    const refused = failed(await kubectl(0, ['create', 'configmap', 'later', '-n', ns, '--from-literal=a=b']), 'create later');
    assert.equal(refused.trim(), `error: failed to create configmap: configmaps "later" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`);
    succeeded(await kubectl(1, ['patch', 'configmap', 'held', '-n', ns, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']), 'release held');
    await eventually('the namespace is gone', async () => (await c.fixture.clients[0]!.call('GET', `/api/v1/namespaces/${ns}`)).status === 404, 30_000);
  });

  await t.test('ServiceAccount: a pod naming a missing service account is refused', async () => {
    const ns = 'sa-missing';
    await c.namespace(ns);
    const refused = failed(await create(1, 'ghost', podManifest('ghost', ns, { spec: { serviceAccountName: 'ghost' } })), 'create ghost');
    assert.match(refused, /^Error from server \(Forbidden\): error when creating ".*ghost\.json": pods "ghost" is forbidden: error looking up service account sa-missing\/ghost: serviceaccount "ghost" not found$/m);
  });

  await t.test('ResourceQuota on requests.cpu: a pod that states no cpu request is refused with `must specify`', async () => {
    const ns = 'rq-compute';
    await c.namespace(ns);
    succeeded(await c.apply(0, JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute', namespace: ns }, spec: { hard: { 'requests.cpu': '1' } } })), 'apply quota');
    await eventually('status.hard set', async () => (await jsonpath(1, ['resourcequota', 'compute', '-n', ns], '{.status.hard.requests\\.cpu}')) === '1');
    const refused = failed(await create(2, 'no-request', podManifest('no-request', ns)), 'create no-request');
    assert.match(refused, /^Error from server \(Forbidden\): error when creating ".*no-request\.json": pods "no-request" is forbidden: failed quota: compute: must specify requests\.cpu for: c$/m);
    succeeded(await create(0, 'small', podManifest('small', ns, { container: { resources: { requests: { cpu: '600m' } } } })), 'create small');
    const over = failed(await create(1, 'big', podManifest('big', ns, { container: { resources: { requests: { cpu: '500m' } } } })), 'create big');
    assert.match(over, /pods "big" is forbidden: exceeded quota: compute, requested: requests\.cpu=500m, used: requests\.cpu=600m, limited: requests\.cpu=1$/m);
  });

  await t.test('PodSecurity on a Deployment: enforce alone says nothing (templates are only warned and audited); with warn=restricted its template\'s violations are a warning', async (t2) => {
    const ns = 'ps-workload';
    await c.namespace(ns, { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const quiet = await kubectl(2, ['create', 'deployment', 'quiet', '-n', ns, '--image=nginx']);
    succeeded(quiet, 'create deployment quiet');
    assert.doesNotMatch(quiet.stderr, /Warning/);
    succeeded(await kubectl(0, ['label', 'namespace', ns, 'pod-security.kubernetes.io/warn=restricted']), 'label warn');
    await eventually('the warn label is seen on replica 1', async () => {
      const created = await kubectl(1, ['create', 'deployment', 'web', '-n', ns, '--image=nginx', '--dry-run=server']);
      return /Warning/.test(created.stderr);
    });
    const created = await kubectl(1, ['create', 'deployment', 'web', '-n', ns, '--image=nginx']);
    succeeded(created, 'create deployment web');
    const warning = created.stderr.split('\n').find((line) => line.startsWith('Warning: would violate PodSecurity'));
    assert.match(warning ?? '', /^Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "nginx" must set securityContext\.allowPrivilegeEscalation=false\), /);
    // kube-apiserver cuts warnings to 256 runes only once a response's warnings pass 4096 runes
    // (endpoints/filters/warning.go), and never appends "...".
    await t2.test('the warning arrives whole (469 characters)', () => assert.equal(warning, 'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'));
  });

  await t.test('Priority: a user PriorityClass gives its value', async () => {
    succeeded(await c.apply(0, JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 })), 'apply priorityclass');
    await c.namespace('prio-user');
    await eventually('the class is seen on replica 1', async () => (await create(1, 'high', podManifest('high', 'prio-user', { spec: { priorityClassName: 'high' } }))).code === 0);
    assert.equal(await jsonpath(2, ['pod', 'high', '-n', 'prio-user'], '{.spec.priority}'), '1000');
  });
  await t.test('PodSecurity: a pinned enforce-version names its version; an invalid level label is refused (422)', async () => {
    await c.namespace('ps-pinned', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.27' });
    const refused = failed(await create(0, 'priv-pinned', podManifest('priv', 'ps-pinned', { container: privileged })), 'create privileged pod');
    assert.match(refused, /pods "priv" is forbidden: violates PodSecurity "baseline:v1\.27": privileged \(container "c" must not set securityContext\.privileged=true\)$/m);
    const invalid = failed(await create(1, 'ps-bogus', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ps-bogus', labels: { 'pod-security.kubernetes.io/enforce': 'bogus' } } })), 'create ps-bogus');
    assert.equal(invalid.trim(), 'The Namespace "ps-bogus" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted');
    const relabel = failed(await kubectl(2, ['label', 'namespace', 'ps-pinned', 'pod-security.kubernetes.io/enforce=bogus', '--overwrite']), 'label bogus');
    assert.equal(relabel.trim(), 'The Namespace "ps-pinned" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted');
  });

  await t.test('DefaultTolerationSeconds keeps a pod\'s own not-ready toleration and adds only the missing one', async () => {
    const ns = 'tolerations-own';
    await c.namespace(ns);
    const own = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 };
    succeeded(await create(1, 'own-toleration', podManifest('own', ns, { spec: { tolerations: [own] } })), 'create own');
    const tolerations = JSON.parse(await jsonpath(2, ['pod', 'own', '-n', ns], '{.spec.tolerations}')) as unknown;
    assert.deepEqual(tolerations, [own, { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 }]);
  });
});
