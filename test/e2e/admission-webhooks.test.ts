// Admission webhooks end to end on a real 3-process cluster: the test serves the webhooks over
// HTTPS with its own CA (caBundle, `url: https://127.0.0.1:<port>/<path>`), registers them with
// kubectl apply, and asserts what kube-apiserver 1.28 answers: denials in the webhook's words and
// code, JSON Patch mutations seen through another replica, reinvocation, timeouts under both
// failure policies, dry run, selectors, AdmissionReview versions, warnings, configuration changes
// reaching every replica, and the fields of the request a webhook receives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, failed, startAdmissionCluster, type AdmissionCluster } from '../support/admission-cluster.ts';
import { startAdmissionWebhookServer, type AdmissionWebhookServer, type ReceivedReview } from '../support/admission-webhook-server.ts';
import { freePorts } from '../support/free-ports.ts';
import { succeeded } from '../support/kubectl-runner.ts';
import { makeCa } from '../unit/authn/fixtures/test-pki.ts';

type Kind = 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';
type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** What one webhook of a configuration is; everything but name and path has a default. */
interface HookSpec {
  readonly name: string;
  readonly path: string;
  /** The namespace the webhook is scoped to (namespaceSelector on kubernetes.io/metadata.name). */
  readonly namespace: string;
  readonly operations?: readonly Operation[];
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly reinvocationPolicy?: 'Never' | 'IfNeeded';
  readonly admissionReviewVersions?: readonly string[];
  readonly objectSelector?: unknown;
  readonly namespaceSelector?: unknown;
  /** Instead of the test server's URL for `path` and its CA. */
  readonly url?: string;
  readonly caBundle?: string;
  /** Instead of configmaps in the core group. */
  readonly rules?: readonly unknown[];
}

function hookObject(server: AdmissionWebhookServer, spec: HookSpec): Record<string, unknown> {
  return {
    name: spec.name,
    clientConfig: { url: spec.url ?? server.url(spec.path), caBundle: spec.caBundle ?? server.caBundle },
    rules: spec.rules ?? [{ operations: spec.operations ?? ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    namespaceSelector: spec.namespaceSelector ?? { matchLabels: { 'kubernetes.io/metadata.name': spec.namespace } },
    ...(spec.objectSelector === undefined ? {} : { objectSelector: spec.objectSelector }),
    failurePolicy: spec.failurePolicy ?? 'Fail',
    sideEffects: spec.sideEffects ?? 'None',
    admissionReviewVersions: spec.admissionReviewVersions ?? ['v1'],
    ...(spec.timeoutSeconds === undefined ? {} : { timeoutSeconds: spec.timeoutSeconds }),
    ...(spec.reinvocationPolicy === undefined ? {} : { reinvocationPolicy: spec.reinvocationPolicy }),
  };
}

/** A configuration as JSON text (which is YAML too), for kubectl apply -f. */
function configuration(server: AdmissionWebhookServer, kind: Kind, name: string, hooks: readonly HookSpec[]): string {
  return JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks: hooks.map((h) => hookObject(server, h)) }, null, 2);
}

/** A ConfigMap body. */
function configMap(name: string, labels: Record<string, string> = {}): unknown {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: 'b' } };
}

let probes = 0;

/**
 * Waits until a server dry-run create in `namespace` through each replica reaches `path`: the
 * configuration is then active everywhere (dry runs store nothing; every hook here has sideEffects None).
 */
async function awaitHookOnEveryReplica(c: AdmissionCluster, server: AdmissionWebhookServer, namespace: string, path: string, labels: Record<string, string> = {}): Promise<void> {
  for (const [replica, client] of c.fixture.clients.entries()) {
    await eventually(`${path} called for a create through replica ${replica}`, async () => {
      const before = server.received(path).length;
      await client.call('POST', `/api/v1/namespaces/${namespace}/configmaps?dryRun=All`, { body: configMap(`probe-${probes++}`, labels) });
      return server.received(path).length > before;
    });
  }
}

/** An object in a review as the assertions read it. */
interface ObjectView {
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly data?: unknown;
}

/** A review's request as the assertions read it. */
interface RequestView {
  readonly [field: string]: unknown;
  readonly uid: string;
  readonly object: ObjectView | null;
  readonly oldObject: ObjectView | null;
  readonly userInfo: { readonly username: string; readonly groups: readonly string[] };
  readonly options: { readonly kind: string; readonly apiVersion: string } | null;
}

function requestOf(review: ReceivedReview | undefined): RequestView {
  assert.ok(review !== undefined, 'a review was received');
  return review.request as unknown as RequestView;
}

function labelsOf(review: ReceivedReview | undefined): Record<string, string> {
  const object = review?.request.object as { metadata?: { labels?: Record<string, string> } } | null | undefined;
  return object?.metadata?.labels ?? {};
}

/** A JSON Patch adding label `key` (and the labels map when the object has none); empty when the label is there. */
function addLabel(review: ReceivedReview, key: string, value: string): unknown[] {
  const object = review.request.object as { metadata?: { labels?: Record<string, string> } } | null;
  if (object?.metadata?.labels === undefined) return [{ op: 'add', path: '/metadata/labels', value: { [key]: value } }];
  return object.metadata.labels[key] === undefined ? [{ op: 'add', path: `/metadata/labels/${key}`, value }] : [];
}

test('admission webhooks through real replicas: deny, patch, reinvocation, timeouts, dry run, selectors, versions, warnings, configuration changes, request fields', { timeout: 600_000 }, async (t) => {
  const server = await startAdmissionWebhookServer();
  const started: { cluster?: AdmissionCluster } = {};
  t.after(async () => {
    await started.cluster?.stop();
    await server.close();
  });
  const c = await startAdmissionCluster();
  started.cluster = c;
  const { kubectl } = c;

  await t.test('a validating webhook denies: kubectl shows `admission webhook "<name>" denied the request: <message>`, the status code is the webhook\'s', async () => {
    const ns = 'wh-deny';
    await c.namespace(ns);
    server.handle('/deny', (review) => {
      const name = (review.request.name as string | undefined) ?? '';
      return name.startsWith('deny-') ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: `configmaps named ${name} are not allowed` } } : { allowed: true };
    });
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'deny', [{ name: 'deny.orch.test', path: '/deny', namespace: ns }])), 'apply deny');
    await awaitHookOnEveryReplica(c, server, ns, '/deny');
    const refused = await kubectl(1, ['create', 'configmap', 'deny-x', '-n', ns, '--from-literal=a=b']);
    assert.equal(failed(refused, 'create configmap deny-x').trim(), 'error: failed to create configmap: admission webhook "deny.orch.test" denied the request: configmaps named deny-x are not allowed');
    const answer = await c.fixture.clients[2]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap('deny-y') });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
      message: 'admission webhook "deny.orch.test" denied the request: configmaps named deny-y are not allowed',
    });
    // A code under 400 becomes 400 (ToStatusErr); the reason stays as the webhook gave it.
    server.handle('/deny', () => ({ allowed: false, status: { code: 200, message: 'low code' } }));
    const low = await c.fixture.clients[0]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap('deny-z') });
    assert.equal(low.status, 400);
    assert.equal((low.json as { message: string }).message, 'admission webhook "deny.orch.test" denied the request: low code');
    assert.equal((await kubectl(0, ['get', 'configmap', '-n', ns, 'deny-x', '--ignore-not-found', '-o', 'name'])).stdout, '');
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'deny']), 'delete configuration');
  });

  await t.test('a mutating webhook\'s JSON Patch adds a label, visible through another replica', async () => {
    const ns = 'wh-patch';
    await c.namespace(ns);
    server.handle('/patch', (review) => ({ allowed: true, patch: addLabel(review, 'patched-by', 'webhook') }));
    succeeded(await c.apply(1, configuration(server, 'MutatingWebhookConfiguration', 'patch', [{ name: 'patch.orch.test', path: '/patch', namespace: ns }])), 'apply patch');
    await awaitHookOnEveryReplica(c, server, ns, '/patch');
    succeeded(await kubectl(0, ['create', 'configmap', 'patched', '-n', ns, '--from-literal=a=b']), 'create patched');
    const label = succeeded(await kubectl(2, ['get', 'configmap', 'patched', '-n', ns, '-o', 'jsonpath={.metadata.labels.patched-by}']), 'get patched');
    assert.equal(label, 'webhook');
  });

  await t.test('a patch that does not apply fails the request with 500 and json-patch\'s own message (kube: apierrors.NewInternalError of evanphx/json-patch\'s error)', { todo: 'orch words the error as its PATCH handler does (422 text) and adds reason "" to details.causes[0]' }, async () => {
    const ns = 'wh-patch-missing';
    await c.namespace(ns);
    server.handle('/patch-missing', () => ({ allowed: true, patch: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }));
    succeeded(await c.apply(1, configuration(server, 'MutatingWebhookConfiguration', 'patch-missing', [{ name: 'missing.orch.test', path: '/patch-missing', namespace: ns }])), 'apply patch-missing');
    await awaitHookOnEveryReplica(c, server, ns, '/patch-missing');
    const answer = await c.fixture.clients[0]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unlabelled' } } });
    const cause = 'add operation does not apply: doc is missing path: "/metadata/labels/x": missing value';
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'InternalError', code: 500, message: `Internal error occurred: ${cause}`, details: { causes: [{ message: cause }] } });
  });

  await t.test('reinvocation: an IfNeeded webhook is called again after a later webhook changed the object', async () => {
    const ns = 'wh-reinvoke';
    await c.namespace(ns);
    server.handle('/reinvoke-first', () => ({ allowed: true }));
    server.handle('/reinvoke-second', (review) => ({ allowed: true, patch: addLabel(review, 'second', 'yes') }));
    succeeded(await c.apply(0, configuration(server, 'MutatingWebhookConfiguration', 'reinvoke', [
      { name: 'first.orch.test', path: '/reinvoke-first', namespace: ns, reinvocationPolicy: 'IfNeeded' },
      { name: 'second.orch.test', path: '/reinvoke-second', namespace: ns },
    ])), 'apply reinvoke');
    await awaitHookOnEveryReplica(c, server, ns, '/reinvoke-second');
    const firstBefore = server.received('/reinvoke-first').length;
    const secondBefore = server.received('/reinvoke-second').length;
    succeeded(await kubectl(1, ['create', 'configmap', 'reinvoked', '-n', ns, '--from-literal=a=b']), 'create reinvoked');
    const firstCalls = server.received('/reinvoke-first').slice(firstBefore);
    assert.equal(firstCalls.length, 2, 'the IfNeeded webhook is called twice');
    assert.equal(server.received('/reinvoke-second').length - secondBefore, 1, 'the Never webhook once');
    assert.equal(labelsOf(firstCalls[1])['second'], 'yes', 'the second call sees the later webhook\'s change');
    assert.equal(succeeded(await kubectl(2, ['get', 'configmap', 'reinvoked', '-n', ns, '-o', 'jsonpath={.metadata.labels.second}']), 'get'), 'yes');
  });

  await t.test('a webhook that never answers within timeoutSeconds: 1 fails the request under Fail (context deadline exceeded) and is skipped under Ignore', async (t2) => {
    const ns = 'wh-timeout';
    await c.namespace(ns);
    server.handle('/timeout-fail', () => 'never');
    server.handle('/timeout-ignore', () => 'never');
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'timeouts', [
      { name: 'fail.orch.test', path: '/timeout-fail', namespace: ns, timeoutSeconds: 1, objectSelector: { matchLabels: { policy: 'fail' } } },
      { name: 'ignore.orch.test', path: '/timeout-ignore', namespace: ns, timeoutSeconds: 1, failurePolicy: 'Ignore', objectSelector: { matchLabels: { policy: 'ignore' } } },
    ])), 'apply timeouts');
    await awaitHookOnEveryReplica(c, server, ns, '/timeout-ignore', { policy: 'ignore' });
    await awaitHookOnEveryReplica(c, server, ns, '/timeout-fail', { policy: 'fail' });
    const started = Date.now();
    const answer = await c.fixture.clients[1]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap('closed', { policy: 'fail' }) });
    assert.ok(Date.now() - started < 8_000, 'the deadline is about a second');
    const cause = `failed calling webhook "fail.orch.test": failed to call webhook: Post "${server.url('/timeout-fail')}?timeout=1s": context deadline exceeded`;
    assert.equal(answer.status, 500);
    const status = answer.json as { reason: string; message: string; details?: { causes?: { message: string }[] } };
    assert.equal(status.reason, 'InternalError');
    assert.equal(status.message, `Internal error occurred: ${cause}`);
    assert.equal(status.details?.causes?.[0]?.message, cause);
    await t2.test('the Status is exactly apierrors.NewInternalError\'s (details.causes[0] holds only the message)', () => {
      assert.deepEqual(answer.json, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'InternalError', code: 500,
        message: `Internal error occurred: ${cause}`, details: { causes: [{ message: cause }] },
      });
    });
    const manifest = c.manifest('closed.json', JSON.stringify(configMap('closed-kubectl', { policy: 'fail' })));
    const refused = failed(await kubectl(2, ['create', '-n', ns, '-f', manifest]), 'create closed-kubectl');
    assert.match(refused, /failed calling webhook "fail\.orch\.test"/);
    assert.match(refused, /context deadline exceeded/);
    const open = c.manifest('open.json', JSON.stringify(configMap('open', { policy: 'ignore' })));
    succeeded(await kubectl(0, ['create', '-n', ns, '-f', open]), 'create open under Ignore');
    succeeded(await kubectl(1, ['get', 'configmap', 'open', '-n', ns]), 'get open');
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'timeouts']), 'delete configuration');
  });

  await t.test('kubectl create --dry-run=server calls webhooks with sideEffects None and NoneOnDryRun with request.dryRun true, and stores nothing', async () => {
    const ns = 'wh-dryrun';
    await c.namespace(ns);
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'dryrun', [
      { name: 'none.orch.test', path: '/dry-none', namespace: ns },
      { name: 'none-on-dry-run.orch.test', path: '/dry-none-on-dry-run', namespace: ns, sideEffects: 'NoneOnDryRun' },
    ])), 'apply dryrun');
    await awaitHookOnEveryReplica(c, server, ns, '/dry-none');
    await awaitHookOnEveryReplica(c, server, ns, '/dry-none-on-dry-run');
    const before = [server.received('/dry-none').length, server.received('/dry-none-on-dry-run').length];
    succeeded(await kubectl(1, ['create', 'configmap', 'dry', '-n', ns, '--from-literal=a=b', '--dry-run=server']), 'create --dry-run=server');
    const none = server.received('/dry-none').slice(before[0]);
    const noneOnDryRun = server.received('/dry-none-on-dry-run').slice(before[1]);
    assert.equal(none.length, 1);
    assert.equal(noneOnDryRun.length, 1);
    assert.equal(none[0]?.request.dryRun, true);
    assert.equal(noneOnDryRun[0]?.request.dryRun, true);
    assert.equal(none[0]?.request.name, 'dry');
    assert.deepEqual((none[0]?.request.options as { dryRun?: unknown } | null)?.dryRun, ['All'], 'the CreateOptions carry dryRun');
    assert.equal((await kubectl(0, ['get', 'configmap', 'dry', '-n', ns, '--ignore-not-found', '-o', 'name'])).stdout, '');
    // A real create is called with dryRun false.
    succeeded(await kubectl(2, ['create', 'configmap', 'wet', '-n', ns, '--from-literal=a=b']), 'create wet');
    assert.equal(server.received('/dry-none').at(-1)?.request.dryRun, false);
  });

  await t.test('v1 refuses sideEffects Some and Unknown at validation (422)', async () => {
    for (const [kind, resource] of [['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'], ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations']] as const) {
      for (const sideEffects of ['Some', 'Unknown']) {
        const name = `side-effects-${sideEffects.toLowerCase()}`;
        const body = JSON.parse(configuration(server, kind, name, [{ name: 'side.orch.test', path: '/side', namespace: 'default', sideEffects }])) as unknown;
        const answer = await c.fixture.clients[0]!.call('POST', `/apis/admissionregistration.k8s.io/v1/${resource}`, { body });
        assert.equal(answer.status, 422, `${kind} ${sideEffects}: ${answer.text}`);
        assert.equal((answer.json as { message: string }).message, `${kind}.admissionregistration.k8s.io "${name}" is invalid: webhooks[0].sideEffects: Unsupported value: "${sideEffects}": supported values: "None", "NoneOnDryRun"`);
        const applied = failed(await c.apply(1, JSON.stringify(body)), `apply ${kind} ${sideEffects}`);
        assert.match(applied, new RegExp(`webhooks\\[0\\]\\.sideEffects: Unsupported value: "${sideEffects}"`));
      }
    }
  });

  await t.test('an objectSelector miss and a namespaceSelector miss: the webhook is not called', async () => {
    const ns = 'wh-selectors';
    await c.namespace(ns, { team: 'blue' });
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'selectors', [
      { name: 'witness.orch.test', path: '/selectors-witness', namespace: ns },
      { name: 'object-miss.orch.test', path: '/object-miss', namespace: ns, objectSelector: { matchLabels: { wanted: 'yes' } } },
      { name: 'namespace-miss.orch.test', path: '/namespace-miss', namespace: ns, namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['red'] }] } },
      { name: 'object-hit.orch.test', path: '/object-hit', namespace: ns, objectSelector: { matchLabels: { wanted: 'yes' } } },
    ])), 'apply selectors');
    await awaitHookOnEveryReplica(c, server, ns, '/selectors-witness');
    succeeded(await kubectl(1, ['create', 'configmap', 'unlabelled', '-n', ns, '--from-literal=a=b']), 'create unlabelled');
    assert.equal(server.received('/object-miss').length, 0, 'objectSelector miss');
    assert.equal(server.received('/object-hit').length, 0, 'objectSelector miss');
    assert.equal(server.received('/namespace-miss').length, 0, 'namespaceSelector miss');
    const labelled = c.manifest('wanted.json', JSON.stringify({ ...(configMap('wanted', { wanted: 'yes' }) as object), metadata: { name: 'wanted', namespace: ns, labels: { wanted: 'yes' } } }));
    succeeded(await kubectl(2, ['create', '-f', labelled]), 'create wanted');
    assert.equal(server.received('/object-hit').length, 1, 'objectSelector hit');
    assert.equal(server.received('/namespace-miss').length, 0, 'namespaceSelector miss');
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'selectors']), 'delete configuration');
  });

  await t.test('a webhook listing only v1beta1 receives an admission.k8s.io/v1beta1 AdmissionReview', async () => {
    const ns = 'wh-v1beta1';
    await c.namespace(ns);
    succeeded(await c.apply(2, configuration(server, 'MutatingWebhookConfiguration', 'v1beta1', [{ name: 'beta.orch.test', path: '/v1beta1', namespace: ns, admissionReviewVersions: ['v1beta1'] }])), 'apply v1beta1');
    await awaitHookOnEveryReplica(c, server, ns, '/v1beta1');
    succeeded(await kubectl(0, ['create', 'configmap', 'beta', '-n', ns, '--from-literal=a=b']), 'create beta');
    const review = server.received('/v1beta1').at(-1);
    assert.equal(review?.apiVersion, 'admission.k8s.io/v1beta1');
    assert.equal(review?.kind, 'AdmissionReview');
    assert.equal(review?.request.name, 'beta');
  });

  await t.test('a webhook\'s warnings reach kubectl as `Warning: <text>`', async (t2) => {
    const ns = 'wh-warnings';
    await c.namespace(ns);
    server.handle('/warn', () => ({ allowed: true, warnings: ['this configmap is watched closely'] }));
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'warnings', [{ name: 'warn.orch.test', path: '/warn', namespace: ns }])), 'apply warnings');
    await awaitHookOnEveryReplica(c, server, ns, '/warn');
    const created = await kubectl(1, ['create', 'configmap', 'warned', '-n', ns, '--from-literal=a=b']);
    succeeded(created, 'create warned');
    assert.match(created.stderr, /^Warning: this configmap is watched closely$/m);
    // kube-apiserver keeps a warning whole while a response's warnings stay under 4096 runes (endpoints/filters/warning.go).
    const long = `a long warning: ${'x'.repeat(300)}`;
    server.handle('/warn', () => ({ allowed: true, warnings: [long] }));
    const warnedLong = await kubectl(2, ['create', 'configmap', 'warned-long', '-n', ns, '--from-literal=a=b']);
    succeeded(warnedLong, 'create warned-long');
    assert.match(warnedLong.stderr, /^Warning: a long warning: x+/m);
    await t2.test('a 316-character warning arrives whole', () => {
      assert.match(warnedLong.stderr, new RegExp(`^Warning: ${long}$`, 'm'));
    });
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'warnings']), 'delete configuration');
  });

  await t.test('a configuration change takes effect on every replica within a few seconds', async () => {
    const ns = 'wh-change';
    await c.namespace(ns);
    server.handle('/change-a', () => ({ allowed: false, status: { code: 403, message: 'refused by version a' } }));
    server.handle('/change-b', () => ({ allowed: false, status: { code: 403, message: 'refused by version b' } }));
    const message = async (replica: number): Promise<string> => {
      const answer = await c.fixture.clients[replica]!.call('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, { body: configMap(`change-${probes++}`) });
      return answer.status === 201 ? 'allowed' : String((answer.json as { message?: string } | undefined)?.message);
    };
    const expectEverywhere = async (expected: string, what: string): Promise<void> => {
      const applied = Date.now();
      for (const replica of [0, 1, 2]) await eventually(`${what} on replica ${replica}`, async () => (await message(replica)) === expected, 5_000);
      assert.ok(Date.now() - applied < 5_000, `${what} everywhere within 5 s`);
    };
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'change', [{ name: 'change.orch.test', path: '/change-a', namespace: ns }])), 'apply a');
    await expectEverywhere('admission webhook "change.orch.test" denied the request: refused by version a', 'created');
    succeeded(await c.apply(1, configuration(server, 'ValidatingWebhookConfiguration', 'change', [{ name: 'change.orch.test', path: '/change-b', namespace: ns }])), 'apply b');
    await expectEverywhere('admission webhook "change.orch.test" denied the request: refused by version b', 'updated');
    succeeded(await kubectl(2, ['delete', 'validatingwebhookconfiguration', 'change']), 'delete change');
    await expectEverywhere('allowed', 'deleted');
  });

  await t.test('the request a webhook receives: uid, kinds, resources, name, namespace, operation, user, objects, options on CREATE, UPDATE and DELETE', async () => {
    const ns = 'wh-fields';
    await c.namespace(ns);
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'fields', [{ name: 'fields.orch.test', path: '/fields', namespace: ns, operations: ['CREATE', 'UPDATE', 'DELETE'] }])), 'apply fields');
    await awaitHookOnEveryReplica(c, server, ns, '/fields');
    const kind = { group: '', version: 'v1', kind: 'ConfigMap' };
    const resource = { group: '', version: 'v1', resource: 'configmaps' };
    const common = { kind, resource, requestKind: kind, requestResource: resource, name: 'fields', namespace: ns, dryRun: false };

    let before = server.received('/fields').length;
    succeeded(await kubectl(1, ['create', 'configmap', 'fields', '-n', ns, '--from-literal=a=b']), 'create fields');
    const create = server.received('/fields').slice(before);
    assert.equal(create.length, 1);
    const createRequest = requestOf(create[0]);
    assert.equal(create[0]!.apiVersion, 'admission.k8s.io/v1');
    assert.match(createRequest.uid, /^[0-9a-f-]{36}$/);
    for (const [key, value] of Object.entries(common)) assert.deepEqual(createRequest[key], value, key);
    assert.equal(createRequest.operation, 'CREATE');
    assert.equal(createRequest.userInfo.username, 'orch-admin');
    assert.deepEqual([...createRequest.userInfo.groups].sort(), ['system:authenticated', 'system:masters']);
    assert.equal(createRequest.object?.metadata.name, 'fields');
    assert.deepEqual(createRequest.object?.data, { a: 'b' });
    assert.equal(createRequest.oldObject, null);
    assert.deepEqual(createRequest.options, { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', fieldManager: 'kubectl-create' });

    before = server.received('/fields').length;
    succeeded(await kubectl(2, ['label', 'configmap', 'fields', '-n', ns, 'touched=yes']), 'label fields');
    const update = server.received('/fields').slice(before);
    assert.equal(update.length, 1);
    const updateRequest = requestOf(update[0]);
    for (const [key, value] of Object.entries(common)) assert.deepEqual(updateRequest[key], value, key);
    assert.equal(updateRequest.operation, 'UPDATE');
    assert.notEqual(updateRequest.uid, createRequest.uid);
    assert.equal(updateRequest.object?.metadata.labels?.touched, 'yes');
    assert.ok(updateRequest.oldObject !== null, 'oldObject is set on UPDATE');
    assert.equal(updateRequest.oldObject.metadata.labels?.touched, undefined);
    assert.equal(updateRequest.options?.kind, 'UpdateOptions');

    before = server.received('/fields').length;
    succeeded(await kubectl(0, ['delete', 'configmap', 'fields', '-n', ns]), 'delete fields');
    const deleted = server.received('/fields').slice(before);
    assert.equal(deleted.length, 1);
    const deleteRequest = requestOf(deleted[0]);
    for (const [key, value] of Object.entries(common)) assert.deepEqual(deleteRequest[key], value, key);
    assert.equal(deleteRequest.operation, 'DELETE');
    assert.equal(deleteRequest.object, null);
    assert.ok(deleteRequest.oldObject !== null, 'oldObject is set on DELETE');
    assert.equal(deleteRequest.oldObject.metadata.name, 'fields');
    assert.equal(deleteRequest.oldObject.metadata.labels?.touched, 'yes');
    assert.equal(deleteRequest.options?.kind, 'DeleteOptions');
    assert.equal(deleteRequest.options?.apiVersion, 'meta.k8s.io/v1');
    assert.equal((await kubectl(1, ['get', 'configmap', 'fields', '-n', ns, '--ignore-not-found', '-o', 'name'])).stdout, '');
  });

  await t.test('a webhook registered for DELETE only can refuse a delete, and sees the object as oldObject', async () => {
    const ns = 'wh-delete';
    await c.namespace(ns);
    succeeded(await kubectl(0, ['create', 'configmap', 'kept', '-n', ns, '--from-literal=a=b']), 'create kept');
    server.handle('/delete-only', (review) => ((review.request.name as string) === 'kept' ? { allowed: false, status: { code: 403, message: 'kept stays' } } : { allowed: true }));
    succeeded(await c.apply(1, configuration(server, 'ValidatingWebhookConfiguration', 'delete-only', [{ name: 'delete.orch.test', path: '/delete-only', namespace: ns, operations: ['DELETE'] }])), 'apply delete-only');
    // Synchronised on the refusal itself: a delete through each replica until it is refused.
    for (const replica of [0, 1, 2]) {
      await eventually(`delete refused through replica ${replica}`, async () => (await c.fixture.clients[replica]!.call('DELETE', `/api/v1/namespaces/${ns}/configmaps/kept?dryRun=All`)).status === 403);
    }
    const before = server.received('/delete-only').length;
    const refused = failed(await kubectl(2, ['delete', 'configmap', 'kept', '-n', ns]), 'delete kept');
    assert.equal(refused.trim(), 'Error from server: admission webhook "delete.orch.test" denied the request: kept stays', 'no reason in the webhook\'s status: none in kubectl\'s line');
    const review = server.received('/delete-only').slice(before);
    assert.equal(review.length, 1);
    assert.equal(review[0]?.request.operation, 'DELETE');
    assert.equal((review[0]?.request.oldObject as { metadata: { name: string } } | null)?.metadata.name, 'kept');
    assert.equal(review[0]?.request.object, null);
    succeeded(await kubectl(0, ['get', 'configmap', 'kept', '-n', ns]), 'kept is still there');
    // A create is not a DELETE: not called.
    const creates = server.received('/delete-only').length;
    succeeded(await kubectl(0, ['create', 'configmap', 'other', '-n', ns, '--from-literal=a=b']), 'create other');
    assert.equal(server.received('/delete-only').length, creates);
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'delete-only']), 'delete configuration');
  });
  await t.test('failures to reach a webhook under Fail, in kube\'s words: connection refused, a caBundle that does not sign the server, a wrong response uid', async () => {
    const ns = 'wh-unreachable';
    await c.namespace(ns);
    const [closedPort] = await freePorts(1);
    const strangerCa = await makeCa('not-the-webhook-ca');
    server.handle('/wrong-uid', () => ({ allowed: true, uid: 'not-the-request-uid' }));
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'unreachable', [
      { name: 'witness.orch.test', path: '/unreachable-witness', namespace: ns },
      { name: 'refused.orch.test', path: '/refused', namespace: ns, url: `https://127.0.0.1:${closedPort}/refused`, objectSelector: { matchLabels: { case: 'refused' } } },
      { name: 'bad-ca.orch.test', path: '/bad-ca', namespace: ns, caBundle: Buffer.from(strangerCa.pem).toString('base64'), objectSelector: { matchLabels: { case: 'bad-ca' } } },
      { name: 'wrong-uid.orch.test', path: '/wrong-uid', namespace: ns, objectSelector: { matchLabels: { case: 'wrong-uid' } } },
    ])), 'apply unreachable');
    await awaitHookOnEveryReplica(c, server, ns, '/unreachable-witness');
    const attempt = async (label: string): Promise<{ status: number; message: string }> => {
      const answer = await c.fixture.clients[1]!.call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap(label, { case: label }) });
      return { status: answer.status, message: (answer.json as { message?: string } | undefined)?.message ?? answer.text };
    };
    assert.deepEqual(await attempt('refused'), { status: 500, message: `Internal error occurred: failed calling webhook "refused.orch.test": failed to call webhook: Post "https://127.0.0.1:${closedPort}/refused?timeout=10s": dial tcp 127.0.0.1:${closedPort}: connect: connection refused` });
    assert.deepEqual(await attempt('bad-ca'), { status: 500, message: `Internal error occurred: failed calling webhook "bad-ca.orch.test": failed to call webhook: Post "${server.url('/bad-ca')}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority` });
    const wrongUid = await attempt('wrong-uid');
    const uid = server.received('/wrong-uid').at(-1)?.request.uid;
    assert.deepEqual(wrongUid, { status: 500, message: `Internal error occurred: failed calling webhook "wrong-uid.orch.test": received invalid webhook response: expected response.uid="${uid}", got "not-the-request-uid"` });
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'unreachable']), 'delete configuration');
  });

  await t.test('a validating webhook sees the object as the mutating webhooks left it', async () => {
    const ns = 'wh-order';
    await c.namespace(ns);
    server.handle('/order-mutate', (review) => ({ allowed: true, patch: addLabel(review, 'mutated', 'first') }));
    succeeded(await c.apply(0, configuration(server, 'MutatingWebhookConfiguration', 'order', [{ name: 'order-mutate.orch.test', path: '/order-mutate', namespace: ns }])), 'apply mutating');
    succeeded(await c.apply(1, configuration(server, 'ValidatingWebhookConfiguration', 'order', [{ name: 'order-validate.orch.test', path: '/order-validate', namespace: ns }])), 'apply validating');
    await awaitHookOnEveryReplica(c, server, ns, '/order-mutate');
    await awaitHookOnEveryReplica(c, server, ns, '/order-validate');
    succeeded(await kubectl(2, ['create', 'configmap', 'ordered', '-n', ns, '--from-literal=a=b']), 'create ordered');
    assert.equal(labelsOf(server.received('/order-validate').at(-1))['mutated'], 'first');
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'order']), 'delete validating');
    succeeded(await kubectl(0, ['delete', 'mutatingwebhookconfiguration', 'order']), 'delete mutating');
  });

  await t.test('webhooks are never called for webhook configurations themselves', async () => {
    server.handle('/guard', () => ({ allowed: false, status: { code: 403, message: 'no configurations' } }));
    const everything = [{ operations: ['CREATE'], apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1'], resources: ['*'] }];
    succeeded(await c.apply(0, configuration(server, 'ValidatingWebhookConfiguration', 'guard', [{ name: 'guard.orch.test', path: '/guard', namespace: 'default', rules: everything, namespaceSelector: {} }])), 'apply guard');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const replica of [0, 1, 2]) {
      const name = `guarded-${replica}`;
      succeeded(await c.apply(replica, configuration(server, 'MutatingWebhookConfiguration', name, [{ name: 'guarded.orch.test', path: '/guarded', namespace: 'no-such-namespace' }])), `apply ${name} through replica ${replica}`);
      succeeded(await kubectl(replica, ['delete', 'mutatingwebhookconfiguration', name]), `delete ${name}`);
    }
    assert.equal(server.received('/guard').length, 0);
    succeeded(await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'guard']), 'delete guard');
  });
  await t.test('a configuration\'s defaults as kube sets them, and more v1 validation: review versions required, duplicate names, https only', async () => {
    succeeded(await c.apply(0, JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'defaults' },
      webhooks: [{ name: 'defaults.orch.test', clientConfig: { url: server.url('/defaults'), caBundle: server.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }] }],
    })), 'apply defaults');
    const stored = JSON.parse(succeeded(await kubectl(1, ['get', 'mutatingwebhookconfiguration', 'defaults', '-o', 'json']), 'get defaults')) as { webhooks: Record<string, unknown>[] };
    const hook = stored.webhooks[0]!;
    assert.equal(hook.failurePolicy, 'Fail');
    assert.equal(hook.matchPolicy, 'Equivalent');
    assert.deepEqual(hook.namespaceSelector, {});
    assert.deepEqual(hook.objectSelector, {});
    assert.equal(hook.timeoutSeconds, 10);
    assert.equal(hook.reinvocationPolicy, 'Never');
    assert.deepEqual(hook.rules, [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'], scope: '*' }]);
    succeeded(await kubectl(0, ['delete', 'mutatingwebhookconfiguration', 'defaults']), 'delete defaults');

    const refused = async (name: string, webhooks: unknown[]): Promise<string> => {
      const answer = await c.fixture.clients[2]!.call('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks } });
      assert.equal(answer.status, 422, answer.text);
      return (answer.json as { message: string }).message;
    };
    const base = { clientConfig: { url: server.url('/never'), caBundle: server.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'] };
    assert.equal(await refused('no-versions', [{ ...base, name: 'a.orch.test', admissionReviewVersions: [] }]), 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "no-versions" is invalid: webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1');
    assert.equal(await refused('duplicate', [{ ...base, name: 'a.orch.test' }, { ...base, name: 'a.orch.test' }]), 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "duplicate" is invalid: webhooks[1].name: Duplicate value: "a.orch.test"');
    assert.equal(await refused('plain-http', [{ ...base, name: 'a.orch.test', clientConfig: { url: 'http://127.0.0.1:1/x' } }]), 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "plain-http" is invalid: webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]');
  });
  await t.test('matchConditions (beta and on by default in 1.28) decide whether a webhook is called', { todo: 'orch has no CEL: every webhook with matchConditions fails as an evaluation error (internal/admission/webhook/match-conditions.ts), so under Fail every matching request is refused' }, async () => {
    const ns = 'wh-match-conditions';
    await c.namespace(ns);
    const hook = { name: 'conditions.orch.test', clientConfig: { url: server.url('/conditions'), caBundle: server.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail',
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      matchConditions: [{ name: 'only-mc', expression: "object.metadata.name.startsWith('mc-')" }] };
    const witness = { ...hook, name: 'witness.orch.test', clientConfig: { url: server.url('/conditions-witness'), caBundle: server.caBundle }, matchConditions: undefined };
    // The witness is a mutating webhook (called before any validating one) written after the other configuration.
    succeeded(await c.apply(0, JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'conditions' }, webhooks: [hook] })), 'apply conditions');
    succeeded(await c.apply(0, JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'conditions-witness' }, webhooks: [witness] })), 'apply witness');
    try {
      await awaitHookOnEveryReplica(c, server, ns, '/conditions-witness');
      succeeded(await kubectl(1, ['create', 'configmap', 'other', '-n', ns, '--from-literal=a=b']), 'create other (no match: not called)');
      assert.equal(server.received('/conditions').length, 0);
      succeeded(await kubectl(2, ['create', 'configmap', 'mc-a', '-n', ns, '--from-literal=a=b']), 'create mc-a (match: called)');
      assert.equal(server.received('/conditions').length, 1);
    } finally {
      await kubectl(0, ['delete', 'validatingwebhookconfiguration', 'conditions']);
      await kubectl(0, ['delete', 'mutatingwebhookconfiguration', 'conditions-witness']);
    }
  });
});
