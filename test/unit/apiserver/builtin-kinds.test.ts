// Every built-in kind, derived from its schema: a valid object is stored and read back by kubectl
// and by the Debian python3-kubernetes typed client (no decode error), and bad input (an integer
// out of its Go type's range, a malformed quantity, an unknown nested field at each
// fieldValidation level, a value outside a validated enum) gets kube-apiserver's answer with
// nothing stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { builtinDeclarations, servedGroup } from '../../../internal/registry/resource-registry.ts';
import type { ResourceDeclaration } from '../../../internal/registry/schema/declaration.ts';
import type { FieldSchema } from '../../../internal/registry/schema/field-schema.ts';
import { objectSchema } from '../../../internal/registry/schema/schema-check.ts';
import { declarationsWithoutFixture, fixtureNamed, fixtureOf, storedName } from './builtin-fixtures.ts';
import { badEnumOf } from './builtin-bad-enums.ts';
import { everythingServed, startTestServer, testToken, type TestServer } from './harness.ts';

const run = promisify(execFile);
type Json = Record<string, unknown>;
type Step = string | number;

let s: TestServer;
let dir: string;
let kubeconfig: string;
before(async () => {
  s = await startTestServer({ serving: everythingServed });
  dir = mkdtempSync(join(tmpdir(), 'orch-kinds-'));
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${s.baseUrl}\n    certificate-authority-data: ${Buffer.from(s.tls.cert).toString('base64')}\nusers:\n- name: u\n  user:\n    token: ${testToken}\ncontexts:\n- name: x\n  context: {cluster: c, user: u, namespace: default}\ncurrent-context: x\n`,
  );
});
after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function collectionPath(decl: ResourceDeclaration): string {
  const group = servedGroup(decl, 'k8s.io');
  const prefix = group === '' ? `/api/${decl.version}` : `/apis/${group}/${decl.version}`;
  return decl.namespaced ? `${prefix}/namespaces/default/${decl.plural}` : `${prefix}/${decl.plural}`;
}

function apiVersionOf(decl: ResourceDeclaration): string {
  const group = servedGroup(decl, 'k8s.io');
  return group === '' ? decl.version : `${group}/${decl.version}`;
}

/** The fixture with its type meta and a name of the test's own. */
function objectOf(decl: ResourceDeclaration, name: string): Json {
  return { apiVersion: apiVersionOf(decl), kind: decl.kind, ...fixtureNamed(decl, name) };
}

/** The first path (depth first, metadata and status left out) to a field the predicate picks. */
function findField(schema: FieldSchema, pick: (s: FieldSchema) => boolean, path: Step[] = [], seen = new Set<FieldSchema>()): Step[] | undefined {
  if (pick(schema) && path.length > 0) return path;
  if (seen.has(schema) || path.length > 8) return undefined;
  seen.add(schema);
  if (schema.type === 'array' && schema.items !== undefined) return findField(schema.items, pick, [...path, 0], seen);
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    if (path.length === 0 && (key === 'metadata' || key === 'status' || key === 'apiVersion' || key === 'kind')) continue;
    const found = findField(child, pick, [...path, key], seen);
    if (found !== undefined) return found;
  }
  if (schema.additionalProperties !== undefined) return findField(schema.additionalProperties, pick, [...path, 'someKey'], seen);
  return undefined;
}

/** Sets `value` at `path`, making the objects and arrays on the way. */
function setAt(obj: Json, path: readonly Step[], value: unknown): void {
  let at: Record<string | number, unknown> = obj;
  path.forEach((step, i) => {
    if (i === path.length - 1) {
      at[step] = value;
      return;
    }
    const next = path[i + 1];
    if (typeof at[step] !== 'object' || at[step] === null) at[step] = typeof next === 'number' ? [] : {};
    at = at[step] as Record<string | number, unknown>;
  });
}

/** The deepest object of the fixture that its schema describes field by field: where an unknown field goes. */
function deepestDescribedObject(value: unknown, schema: FieldSchema, path: Step[] = []): Step[] | undefined {
  if (Array.isArray(value)) return value.length > 0 && schema.items !== undefined ? deepestDescribedObject(value[0], schema.items, [...path, 0]) : undefined;
  if (typeof value !== 'object' || value === null || schema.properties === undefined) return undefined;
  let best: Step[] = path;
  for (const [key, child] of Object.entries(value as Json)) {
    const sub = schema.properties[key];
    if (sub === undefined || (path.length === 0 && key === 'metadata')) continue;
    const inner = deepestDescribedObject(child, sub, [...path, key]);
    if (inner !== undefined && inner.length > best.length) best = inner;
  }
  return best;
}

/** Whether the kind takes writes (a read-only kind, answered by the server, has only its fixture's name to read). */
const writable = (decl: ResourceDeclaration): boolean => decl.verbs === undefined || decl.verbs.includes('create');

/** Whether the kind's objects can be read back (the legacy `bindings` only acts on pods: create is its one verb). */
const readable = (decl: ResourceDeclaration): boolean => decl.verbs === undefined || decl.verbs.includes('get');

/** The name a kind is read back by: the object the suite stored, or a read-only kind's fixture. */
const readBackName = (decl: ResourceDeclaration): string => (writable(decl) ? storedName(decl, validName(decl)) : String((fixtureOf(decl)?.metadata as Json).name));

/** Which declaration a name is for: per group and version, since some kinds share one store (core/v1 and events.k8s.io/v1 Events, autoscaling/v1 and v2). */
const declTag = (decl: ResourceDeclaration): string => `${decl.group === '' ? 'core' : decl.group}-${decl.version}`;

/** The name of a kind's valid object. */
const validName = (decl: ResourceDeclaration): string => `fixture-valid-${declTag(decl)}`;

/** The Warning headers of a response but the deprecation warning every request of a deprecated version carries. */
const fieldWarnings = (header: string | string[] | undefined): string[] => [header ?? []].flat().filter((w) => !/ is deprecated in v[\d.]+\+/.test(w));

const pathText = (path: readonly Step[]): string => path.reduce<string>((text, step) => (typeof step === 'number' ? `${text}[${step}]` : text === '' ? step : `${text}.${step}`), '');

test('every built-in kind has a fixture', () => {
  assert.deepEqual(declarationsWithoutFixture(), []);
});

for (const decl of builtinDeclarations.filter((d) => writable(d) && readable(d))) {
  describe(`${decl.kind} (${apiVersionOf(decl)})`, () => {
    const schema = objectSchema(decl);
    const base = collectionPath(decl);
    // Names differ per group and version: some kinds share one store.
    const named = (name: string): string => `${name}-${declTag(decl)}`;
    const expectNothingStored = async (name: string): Promise<void> => {
      assert.equal((await s.client.call('GET', `${base}/${storedName(decl, name)}`)).status, 404, `${name} must not be stored`);
    };

    test('a valid object is stored', async () => {
      const r = await s.client.call('POST', base, { body: objectOf(decl, validName(decl)) });
      assert.equal(r.status, 201, r.text);
    });

    const int32 = findField(schema, (f) => f.type === 'integer' && f.format === 'int32');
    test('an integer past its Go type is a 400 decode error naming the struct field', { skip: int32 === undefined && 'no int32 field' }, async () => {
      const path = int32 as Step[];
      const obj = objectOf(decl, named('bad-int'));
      setAt(obj, path, 2147483648);
      const r = await s.client.call('POST', base, { body: obj });
      assert.equal(r.status, 400, r.text);
      const status = r.json as { reason: string; message: string };
      assert.equal(status.reason, 'BadRequest');
      const field = path.filter((p) => typeof p === 'string').join('.');
      assert.ok(status.message.startsWith(`${decl.kind} in version "${decl.version}" cannot be handled as a ${decl.kind}: json: cannot unmarshal number 2147483648 into Go struct field `), status.message);
      assert.ok(status.message.endsWith(`.${field} of type int32`), status.message);
      await expectNothingStored(named('bad-int'));
    });

    const quantity = findField(schema, (f) => f.format === 'quantity');
    test('a malformed quantity is a 400 with apimachinery\'s message', { skip: quantity === undefined && 'no quantity field' }, async () => {
      const obj = objectOf(decl, named('bad-quantity'));
      setAt(obj, quantity as Step[], '1Qi');
      const r = await s.client.call('POST', base, { body: obj });
      assert.equal(r.status, 400, r.text);
      assert.match((r.json as { message: string }).message, /cannot be handled as a \w+: quantities must match the regular expression/);
      await expectNothingStored(named('bad-quantity'));
    });

    const badEnum = badEnumOf(decl);
    test('a bad enum value is a 422 naming the field, as kube-apiserver validates it', { skip: badEnum === undefined && 'no validated enum' }, async () => {
      const { path, value, field } = badEnum as NonNullable<typeof badEnum>;
      const obj = objectOf(decl, named('bad-enum'));
      setAt(obj, path, value);
      const r = await s.client.call('POST', base, { body: obj });
      assert.equal(r.status, 422, r.text);
      const causes = (r.json as { details?: { causes?: { reason: string; field: string }[] } }).details?.causes ?? [];
      assert.ok(causes.some((c) => c.field === field && (c.reason === 'FieldValueNotSupported' || c.reason === 'FieldValueInvalid')), r.text);
      await expectNothingStored(named('bad-enum'));
    });

    const nested = deepestDescribedObject(fixtureOf(decl), schema) ?? [];
    test(`an unknown nested field: Strict refuses it, Warn warns, Ignore drops it silently`, async () => {
      const unknown = [...nested, 'unknownFieldX'];
      const strict = objectOf(decl, named('unknown-strict'));
      setAt(strict, unknown, 1);
      const r = await s.client.call('POST', `${base}?fieldValidation=Strict`, { body: strict });
      assert.equal(r.status, 400, r.text);
      assert.equal((r.json as { message: string }).message, `strict decoding error: unknown field "${pathText(unknown)}"`);
      await expectNothingStored(named('unknown-strict'));
      const warn = objectOf(decl, named('unknown-warn'));
      setAt(warn, unknown, 1);
      const w = await s.client.call('POST', `${base}?fieldValidation=Warn`, { body: warn });
      assert.equal(w.status, 201, w.text);
      assert.deepEqual(fieldWarnings(w.headers.warning), [`299 - ${JSON.stringify(`unknown field "${pathText(unknown)}"`)}`]);
      const ignore = objectOf(decl, named('unknown-ignore'));
      setAt(ignore, unknown, 1);
      const i = await s.client.call('POST', `${base}?fieldValidation=Ignore`, { body: ignore });
      assert.equal(i.status, 201, i.text);
      assert.deepEqual(fieldWarnings(i.headers.warning), []);
      const stored = (await s.client.call('GET', `${base}/${storedName(decl, named('unknown-ignore'))}`)).text;
      assert.doesNotMatch(stored, /unknownFieldX/);
    });
  });
}

test('kubectl reads every kind back as YAML', async () => {
  for (const decl of builtinDeclarations.filter(readable)) {
    const group = servedGroup(decl, 'k8s.io');
    const resource = group === '' ? decl.plural : `${decl.plural}.${decl.version}.${group}`;
    const name = readBackName(decl);
    const { stdout } = await run('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'get', resource, name, '-o', 'yaml'], { timeout: 20_000 });
    assert.match(stdout, new RegExp(`^kind: ${decl.kind}$`, 'm'), decl.kind);
    assert.match(stdout, new RegExp(`^ {2}name: ${name}$`, 'm'), decl.kind);
  }
});

// The Python client's model of each kind (it decodes into typed models, as a Go client does).
// Debian's client (22.6) predates storage/v1 CSIStorageCapacity; its v1beta1 model has the same fields.
// It predates flowcontrol v1beta2 and v1beta3 too: its v1beta1 models read them (unknown fields are
// skipped). It has no autoscaling/v2 model, and its v2beta2 one requires status.conditions, which
// kube-apiserver 1.28 omits on a new autoscaling/v2 HPA: that kind is read back by kubectl only.
const pythonModels: Readonly<Record<string, string | null>> = {
  '/Event': 'CoreV1Event', 'events/Event': 'EventsV1Event', 'storage/CSIStorageCapacity': 'V1beta1CSIStorageCapacity',
  'autoscaling/v2/HorizontalPodAutoscaler': null,
  // It predates ValidatingAdmissionPolicies: they are read back by kubectl only.
  'admissionregistration/v1beta1/ValidatingAdmissionPolicy': null, 'admissionregistration/v1alpha1/ValidatingAdmissionPolicy': null,
  'admissionregistration/v1beta1/ValidatingAdmissionPolicyBinding': null, 'admissionregistration/v1alpha1/ValidatingAdmissionPolicyBinding': null,
  'flowcontrol.apiserver/FlowSchema': 'V1beta1FlowSchema', 'flowcontrol.apiserver/PriorityLevelConfiguration': 'V1beta1PriorityLevelConfiguration',
};
const pythonModel = (decl: ResourceDeclaration): string | null => {
  const byVersion = pythonModels[`${decl.group}/${decl.version}/${decl.kind}`];
  return byVersion !== undefined ? byVersion : (pythonModels[`${decl.group}/${decl.kind}`] ?? `V1${decl.kind}`);
};

test('the Debian python3-kubernetes typed client reads every kind back', async () => {
  const items = builtinDeclarations.filter((decl) => readable(decl) && pythonModel(decl) !== null).map((decl) => ({ path: `${collectionPath(decl)}/${readBackName(decl)}`, model: pythonModel(decl), name: readBackName(decl) }));
  const script = [
    'import json, sys',
    'from kubernetes import client, config',
    'config.load_kube_config(config_file=sys.argv[1])',
    'api = client.ApiClient()',
    'for item in json.loads(sys.argv[2]):',
    "    obj = api.call_api(item['path'], 'GET', response_type=item['model'], auth_settings=['BearerToken'], _return_http_data_only=True)",
    "    print(type(obj).__name__, obj.metadata.name)",
  ].join('\n');
  const { stdout } = await run('/usr/bin/python3', ['-c', script, kubeconfig, JSON.stringify(items)], { timeout: 60_000 });
  assert.deepEqual(stdout.trim().split('\n'), items.map((i) => `${i.model} ${i.name}`));
});
