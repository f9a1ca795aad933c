// The admission floor: which plugins run and in what order (the flags), their configuration file,
// the chain's two phases and reinvocation, and where the store calls admission on each write.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdmissionConfiguration, AdmissionConfigurationError } from '../../../internal/admission/admission-configuration.ts';
import type { AdmissionAttributes } from '../../../internal/admission/attributes.ts';
import { AdmissionChain } from '../../../internal/admission/chain.ts';
import type { AdmissionPlugin } from '../../../internal/admission/plugin.ts';
import { PluginSelectionError, selectPlugins } from '../../../internal/admission/plugin-selection.ts';
import { RequestAdmission } from '../../../internal/admission/request-admission.ts';
import type { AdmissionOperation, WriteAdmission } from '../../../internal/registry/generic/write-admission.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

test('the enabled plugins are kube\'s default set plus --enable minus --disable, in kube\'s order whatever the flags\' order', () => {
  const defaults = selectPlugins({});
  assert.deepEqual(defaults.slice(0, 4), ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition']);
  assert.deepEqual(defaults.slice(-4), ['MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
  const chosen = selectPlugins({ enable: ['AlwaysDeny', 'AlwaysPullImages'], disable: ['ServiceAccount'] });
  assert.ok(chosen.indexOf('AlwaysPullImages') < chosen.indexOf('ResourceQuota'));
  assert.equal(chosen.at(-1), 'AlwaysDeny');
  assert.ok(!chosen.includes('ServiceAccount'));
  assert.deepEqual(selectPlugins({ exact: ['ResourceQuota', 'NamespaceLifecycle'] }), ['NamespaceLifecycle', 'ResourceQuota']);
});

test('an unknown plugin, an overlap or the deprecated flag with the new ones stops the server', () => {
  assert.throws(() => selectPlugins({ enable: ['Nope'] }), (err: unknown) => err instanceof PluginSelectionError && err.message === 'enable-admission-plugins plugin "Nope" is unknown');
  assert.throws(() => selectPlugins({ enable: ['AlwaysDeny'], disable: ['AlwaysDeny'] }), PluginSelectionError);
  assert.throws(() => selectPlugins({ exact: ['AlwaysDeny'], disable: ['ServiceAccount'] }), PluginSelectionError);
});

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-admission-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the configuration file gives each plugin its configuration inline or from the file its path names', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'limits.yaml'), 'kind: Configuration\nlimits:\n- type: Server\n  qps: 5\n  burst: 10\n');
  writeFileSync(join(dir, 'admission.yaml'), [
    'apiVersion: apiserver.config.k8s.io/v1', 'kind: AdmissionConfiguration', 'plugins:',
    '- name: EventRateLimit', '  path: limits.yaml',
    '- name: PodSecurity', '  configuration:', '    apiVersion: pod-security.admission.config.k8s.io/v1', '    kind: PodSecurityConfiguration', '',
  ].join('\n'));
  const configurations = loadAdmissionConfiguration(join(dir, 'admission.yaml'));
  assert.deepEqual(configurations.get('EventRateLimit'), { kind: 'Configuration', limits: [{ type: 'Server', qps: 5, burst: 10 }] });
  assert.deepEqual(configurations.get('PodSecurity'), { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration' });
  writeFileSync(join(dir, 'bad.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
  assert.throws(() => loadAdmissionConfiguration(join(dir, 'bad.yaml')), AdmissionConfigurationError);
  assert.throws(() => loadAdmissionConfiguration(join(dir, 'missing.yaml')), AdmissionConfigurationError);
});

/** A plugin recording its calls as `<name>:<phase>:<operation>`. */
function recorder(name: string, calls: string[], extra: Partial<AdmissionPlugin> = {}): AdmissionPlugin {
  return {
    name,
    handles: () => true,
    admit: async (a) => void calls.push(`${name}:admit:${a.operation}${a.reinvocation.isReinvoke ? ':again' : ''}`),
    validate: async (a) => void calls.push(`${name}:validate:${a.operation}`),
    ...extra,
  };
}

function attributes(operation: AdmissionOperation, object?: KObject): AdmissionAttributes {
  return {
    operation, resource: { group: '', version: 'v1', resource: 'configmaps' }, subresource: '', kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    namespace: 'default', name: 'x', object, oldObject: undefined, operationOptions: undefined, dryRun: false,
    userInfo: { username: 'u', uid: '', groups: [], extra: {} }, reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
    addAnnotation: () => undefined, addWarning: () => undefined,
  };
}

test('the mutating phase runs every mutating plugin in order, then the validating phase; a refusal stops the rest', async () => {
  const calls: string[] = [];
  const chain = new AdmissionChain([recorder('a', calls), recorder('b', calls, { handles: (op) => op === 'DELETE' }), recorder('c', calls)]);
  await chain.admit(attributes('CREATE'));
  await chain.validate(attributes('CREATE'));
  assert.deepEqual(calls, ['a:admit:CREATE', 'c:admit:CREATE', 'a:validate:CREATE', 'c:validate:CREATE']);
  const refusing = new AdmissionChain([recorder('a', calls, { validate: async () => { throw new Error('no'); } }), recorder('z', calls)]);
  calls.length = 0;
  await assert.rejects(refusing.validate(attributes('UPDATE')), /no/);
  assert.deepEqual(calls, []);
});

test('a plugin asking for reinvocation gets every mutating plugin run once more, never a third time', async () => {
  const calls: string[] = [];
  const asking = recorder('webhook', calls, { admit: async (a) => {
    calls.push(`webhook:admit${a.reinvocation.isReinvoke ? ':again' : ''}`);
    a.reinvocation.shouldReinvoke = true;
  } });
  await new AdmissionChain([recorder('first', calls), asking]).admit(attributes('CREATE'));
  assert.deepEqual(calls, ['first:admit:CREATE', 'webhook:admit', 'first:admit:CREATE:again', 'webhook:admit:again']);
});

test('the store runs mutating admission before the strategy and validating admission after it, for each kind of write', async (t) => {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  const registry = new ResourceRegistry('k8s.io');
  const configMaps = storeFor(storage, registry.find('', 'v1', 'configmaps')!);
  const seen: string[] = [];
  const admission: WriteAdmission = {
    async mutate(operation, obj, old) {
      seen.push(`mutate ${operation} uid=${String(obj?.metadata.uid ?? '-')} old=${old?.metadata.name ?? '-'}`);
      if (obj !== undefined) obj.metadata.labels = { ...(obj.metadata.labels ?? {}), admitted: 'yes' };
      return obj;
    },
    async validate(operation, obj, old) {
      seen.push(`validate ${operation} uid=${obj === undefined ? '-' : typeof obj.metadata.uid} old=${old?.metadata.name ?? '-'}`);
    },
  };
  const created = await configMaps.create('default', { metadata: { name: 'cm' } }, { fieldManager: 't', admission });
  assert.equal(created.object.metadata.labels?.admitted, 'yes');
  await configMaps.patch('default', 'cm', (o) => ({ ...o, data: { a: 'b' } }), { fieldManager: 't', admission });
  await configMaps.delete('default', 'cm', { admission });
  assert.deepEqual(seen, [
    'mutate CREATE uid=- old=-', 'validate CREATE uid=string old=-',
    'mutate UPDATE uid=' + String(created.object.metadata.uid) + ' old=cm', 'validate UPDATE uid=string old=cm',
    'mutate DELETE uid=- old=cm', 'validate DELETE uid=- old=cm',
  ]);
  const refusing: WriteAdmission = { mutate: async (_op, obj) => obj, validate: async () => { throw new Error('refused'); } };
  await assert.rejects(configMaps.create('default', { metadata: { name: 'never' } }, { fieldManager: 't', admission: refusing, dryRun: true }), /refused/);
  await assert.rejects(configMaps.get('default', 'never'), /not found/);
});

test('a request\'s admission names its resource, user and dry run, and takes a create\'s name from the object', async () => {
  const got: AdmissionAttributes[] = [];
  const chain = new AdmissionChain([{ name: 'spy', handles: () => true, admit: async (a) => void got.push(a) }]);
  const warnings: string[] = [];
  const request = new RequestAdmission(chain, {
    resource: { group: 'apps', version: 'v1', resource: 'deployments' }, subresource: '', kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    namespace: 'ns', name: '', userInfo: { username: 'alice', uid: '', groups: [], extra: {} }, dryRun: true, fieldManager: 'kubectl', warn: (w) => warnings.push(w), annotations: new Map(),
  });
  await request.mutate('CREATE', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }, undefined);
  const a = got[0];
  assert.equal(a?.name, 'web');
  assert.equal(a?.userInfo.username, 'alice');
  assert.deepEqual(a?.operationOptions, { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', dryRun: ['All'], fieldManager: 'kubectl' });
  a?.addWarning('careful');
  assert.deepEqual(warnings, ['careful']);
});
