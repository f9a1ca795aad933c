import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplyConflictError, PatchError } from '../../../internal/patch/errors.ts';
import { apply } from '../../../internal/patch/server-side-apply.ts';
import type { ApplyOptions } from '../../../internal/patch/server-side-apply.ts';
import type { Schema } from '../../../internal/patch/schema.ts';
import { recordUpdate } from '../../../internal/patch/update-managed-fields.ts';
import { configMapSchema, deploymentSchema, nginxDeployment } from './fixtures.ts';

type Obj = Record<string, unknown>;
const t0 = '2026-11-22T10:00:00Z';
const t1 = '2026-11-22T11:00:00Z';

function run(live: Obj | null, applied: Obj, manager: string, extra: Partial<ApplyOptions> = {}) {
  return apply({ live, applied, manager, apiVersion: 'apps/v1', force: false, schema: deploymentSchema, now: t0, ...extra });
}

function entries(obj: Obj) {
  return (obj['metadata'] as { managedFields: { manager: string; operation: string; fieldsV1: unknown; time: string; apiVersion: string }[] }).managedFields;
}
function entryOf(obj: Obj, manager: string) {
  return entries(obj).find((e) => e.manager === manager);
}
function spec(obj: Obj) {
  return obj['spec'] as { replicas?: number; template: { spec: { containers: { name: string; image?: string }[] } } };
}
function conflictOf(fn: () => unknown): ApplyConflictError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApplyConflictError) return err;
    throw err;
  }
  assert.fail('expected an apply conflict');
}

const nginxTree = {
  'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
};

describe('server-side apply', () => {
  it('rule 1: rejects an applied configuration that carries managedFields, and a missing manager', () => {
    const applied = { ...nginxDeployment(), metadata: { name: 'nginx', managedFields: [] } };
    assert.throws(() => run(null, applied, 'a'), (e: unknown) => e instanceof PatchError && e.code === 'ManagedFieldsInApply' && e.status === 400);
    assert.throws(() => run(null, nginxDeployment(), ''), (e: unknown) => e instanceof PatchError);
  });

  it('creates the object and records one Apply entry with the FieldsV1 tree Kubernetes writes', () => {
    const { object, managedFields, changed } = run(null, nginxDeployment(), 'kubectl');
    assert.equal(changed, true);
    assert.equal(spec(object).replicas, 3);
    assert.deepEqual(managedFields, [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: t0, fieldsType: 'FieldsV1', fieldsV1: nginxTree }]);
    assert.deepEqual(entries(object), managedFields);
  });

  it('rule 2: changing a field another applier owns conflicts, with Kubernetes-style message and causes', () => {
    const { object } = run(null, nginxDeployment(), 'kubectl');
    const err = conflictOf(() => run(object, nginxDeployment({ replicas: 5 }), 'hpa'));
    assert.equal(err.status, 409);
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    assert.deepEqual(err.causes(), [{ type: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' }]);
  });

  it('rule 2: lists every conflicting field, grouped by manager', () => {
    const { object } = run(null, nginxDeployment(), 'kubectl');
    const err = conflictOf(() => run(object, nginxDeployment({ replicas: 5, image: 'nginx:2' }), 'other'));
    assert.deepEqual(err.conflicts.map((c) => c.field), ['.spec.replicas', '.spec.template.spec.containers[name="nginx"].image']);
    assert.equal(
      err.message,
      'Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image',
    );
  });

  it('rule 2: force overwrites the value, takes ownership and removes the field from the other manager', () => {
    const { object } = run(null, nginxDeployment(), 'kubectl');
    const forced = run(object, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx' }, spec: { replicas: 7 } }, 'hpa', { force: true, now: t1 });
    assert.equal(spec(forced.object).replicas, 7);
    assert.deepEqual(entryOf(forced.object, 'hpa')?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.deepEqual(entryOf(forced.object, 'kubectl')?.fieldsV1, { 'f:spec': { 'f:template': nginxTree['f:spec']['f:template'] } });
    // The old owner applying its old value now conflicts with the new owner.
    const err = conflictOf(() => run(forced.object, nginxDeployment(), 'kubectl'));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "hpa": .spec.replicas');
  });

  it('rule 4: appliers of the same value share ownership; a later change by either conflicts', () => {
    const { object } = run(null, nginxDeployment(), 'a');
    const shared = run(object, nginxDeployment(), 'b').object;
    assert.deepEqual(entryOf(shared, 'a')?.fieldsV1, nginxTree);
    assert.deepEqual(entryOf(shared, 'b')?.fieldsV1, nginxTree);
    const err = conflictOf(() => run(shared, nginxDeployment({ replicas: 1 }), 'a'));
    assert.deepEqual(err.conflicts.map((c) => [c.manager, c.field]), [['b', '.spec.replicas']]);
  });

  it('rule 4: a field given up by its only owner is removed; one still owned by another keeps its value', () => {
    const shared = run(run(null, nginxDeployment(), 'a').object, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx' }, spec: { replicas: 3 } }, 'b').object;
    const withoutReplicas = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx' }, spec: { template: { spec: { containers: [{ name: 'nginx' }] } } } };
    const after = run(shared, withoutReplicas, 'a').object;
    assert.equal(spec(after).replicas, 3, 'b still owns replicas');
    assert.equal(spec(after).template.spec.containers[0]!.image, undefined, 'a alone owned the image');
    assert.deepEqual(entryOf(after, 'a')?.fieldsV1, { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:name': {} } } } } } });
    const bGivesUp = run(after, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx' } }, 'b').object;
    assert.equal(spec(bGivesUp).replicas, undefined);
    assert.equal(entryOf(bGivesUp, 'b'), undefined, 'a manager owning nothing is dropped');
  });

  it('rule 4: dropping a list-map item from the configuration removes the item', () => {
    const two = nginxDeployment();
    spec(two).template.spec.containers.push({ name: 'sidecar', image: 'envoy' });
    const live = run(null, two, 'a').object;
    const after = run(live, nginxDeployment(), 'a').object;
    assert.deepEqual(spec(after).template.spec.containers.map((c) => c.name), ['nginx']);
  });

  it('rule 5: setting the field to the live value resolves a conflict by sharing ownership', () => {
    const live = run(null, nginxDeployment(), 'a').object;
    conflictOf(() => run(live, nginxDeployment({ replicas: 9 }), 'b'));
    const after = run(live, nginxDeployment({ replicas: 3 }), 'b').object;
    assert.deepEqual(entryOf(after, 'b')?.fieldsV1, nginxTree);
  });

  it('rule 6: a manager whose fields are all taken by force is removed', () => {
    const live = run(null, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx' }, spec: { replicas: 2 } }, 'a').object;
    const after = run(live, nginxDeployment(), 'b', { force: true }).object;
    assert.deepEqual(entries(after).map((e) => e.manager), ['b']);
  });

  it('names Update managers with their API version in conflicts', () => {
    const created = run(null, nginxDeployment(), 'a').object;
    const edited: Obj = { ...created, spec: { ...spec(created), replicas: 4 } };
    const managedFields = recordUpdate({ oldObject: created, newObject: edited, manager: 'kubectl-edit', apiVersion: 'apps/v1', schema: deploymentSchema, now: t1 });
    const live = { ...edited, metadata: { ...(edited['metadata'] as Obj), managedFields } };
    const err = conflictOf(() => run(live, nginxDeployment(), 'a'));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas');
  });

  it('credits existing fields to before-first-apply when the live object has no managedFields', () => {
    const live = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '2' } };
    const err = conflictOf(() => apply({ live, applied: { ...live, data: { a: 'x' } }, manager: 'm', apiVersion: 'v1', force: false, schema: configMapSchema, now: t0 }));
    assert.deepEqual(err.conflicts.map((c) => [c.manager, c.operation, c.field]), [['before-first-apply', 'Update', '.data.a']]);
    const ok = apply({ live, applied: { ...live, data: { a: '1' } }, manager: 'm', apiVersion: 'v1', force: false, schema: configMapSchema, now: t0 });
    assert.deepEqual(ok.managedFields.map((e) => [e.manager, e.fieldsV1]), [
      ['m', { 'f:data': { 'f:a': {} } }],
      ['before-first-apply', { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }],
    ]);
  });

  it('a repeated identical apply is a no-op that keeps the entry time', () => {
    const live = run(null, nginxDeployment(), 'a').object;
    const again = run(live, nginxDeployment(), 'a', { now: t1 });
    assert.equal(again.changed, false);
    assert.equal(entryOf(again.object, 'a')?.time, t0);
    assert.equal(run(live, nginxDeployment({ replicas: 4 }), 'a', { now: t1 }).managedFields[0]?.time, t1);
  });

  it('merges by list type: granular list-map items merge, atomic lists and maps are replaced', () => {
    const base = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: '1', b: '2' } }, template: { spec: { containers: [{ name: 'x', args: ['1', '2'], image: 'i' }] } } } };
    const live = run(null, base, 'a').object;
    const applied = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'y', image: 'j' }] } } } };
    const after = run(live, applied, 'b').object as { spec: { selector: unknown; template: { spec: { containers: unknown[] } } } };
    assert.deepEqual(after.spec.selector, { matchLabels: { a: '1', b: '2' } });
    assert.deepEqual(after.spec.template.spec.containers, [{ name: 'x', args: ['1', '2'], image: 'i' }, { name: 'y', image: 'j' }]);
    const atomic = run(after as Obj, { ...base, spec: { selector: { matchLabels: { c: '3' } } } }, 'a', { force: true }).object as { spec: { selector: unknown } };
    assert.deepEqual(atomic.spec.selector, { matchLabels: { c: '3' } });
  });

  it('treats custom resources without a schema as unstructured: lists are atomic', () => {
    const cr = { apiVersion: 'x.io/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { items: [{ name: 'a' }] } };
    const live = apply({ live: null, applied: cr, manager: 'a', apiVersion: 'x.io/v1', force: false, schema: undefined, now: t0 }).object;
    assert.deepEqual(entryOf(live, 'a')?.fieldsV1, { 'f:spec': { '.': {}, 'f:items': {} } });
    const err = conflictOf(() => apply({ live, applied: { ...cr, spec: { items: [{ name: 'b' }] } }, manager: 'b', apiVersion: 'x.io/v1', force: false, schema: undefined, now: t0 }));
    assert.equal(err.conflicts[0]?.field, '.spec.items');
  });

  it('rule 9: when a list becomes atomic, owners of its elements own the whole list and later changes conflict', () => {
    const granular: Schema = structuredClone(deploymentSchema);
    const list = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { tolerations: [{ key: 'a' }] } } } };
    granular.properties!['spec']!.properties!['template']!.properties!['spec']!.properties!['tolerations'] = {
      type: 'array', items: { type: 'object', properties: { key: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'],
    };
    const live = apply({ live: null, applied: list, manager: 'a', apiVersion: 'apps/v1', force: false, schema: granular, now: t0 }).object;
    assert.deepEqual(entryOf(live, 'a')?.fieldsV1, { 'f:spec': { 'f:template': { 'f:spec': { 'f:tolerations': { 'k:{"key":"a"}': { '.': {}, 'f:key': {} } } } } } });
    // The declared (fixture) schema has tolerations atomic: another applier's new item now changes a's whole list.
    const applied = { ...list, spec: { template: { spec: { tolerations: [{ key: 'a' }, { key: 'b' }] } } } };
    const err = conflictOf(() => run(live, applied, 'b'));
    assert.deepEqual(err.conflicts.map((c) => c.field), ['.spec.template.spec.tolerations']);
    const forced = run(live, applied, 'b', { force: true }).object;
    assert.equal(entryOf(forced, 'a'), undefined);
  });

  it('rule 9: when a list becomes granular, owning it whole infers nothing and conflicts with nobody', () => {
    const granular: Schema = structuredClone(deploymentSchema);
    granular.properties!['spec']!.properties!['template']!.properties!['spec']!.properties!['tolerations'] = {
      type: 'array', items: { type: 'object', properties: { key: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'],
    };
    const list = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { tolerations: [{ key: 'a' }] } } } };
    const live = run(null, list, 'a').object;
    const applied = { ...list, spec: { template: { spec: { tolerations: [{ key: 'b' }] } } } };
    const after = apply({ live, applied, manager: 'b', apiVersion: 'apps/v1', force: false, schema: granular, now: t1 }).object as { spec: { template: { spec: { tolerations: unknown } } } };
    assert.deepEqual(after.spec.template.spec.tolerations, [{ key: 'a' }, { key: 'b' }]);
  });

  it('rule 9: a map that became atomic is owned whole by the owners of its entries', () => {
    const live = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: {
        name: 'd',
        managedFields: [{ manager: 'old', operation: 'Apply', apiVersion: 'apps/v1', time: t0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:nodeSelector': { 'f:disk': {} } } } } } }],
      },
      spec: { template: { spec: { nodeSelector: { disk: 'ssd' } } } },
    };
    const applied = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { nodeSelector: { disk: 'ssd', zone: 'a' } } } } };
    const err = conflictOf(() => run(live, applied, 'new'));
    assert.deepEqual(err.conflicts.map((c) => c.field), ['.spec.template.spec.nodeSelector']);
  });

  it('names sub-resource managers in conflicts', () => {
    const live = run(null, nginxDeployment(), 'ctl', { subresource: 'scale' }).object;
    assert.equal(entryOf(live, 'ctl') && (entries(live)[0] as { subresource?: string }).subresource, 'scale');
    const err = conflictOf(() => run(live, nginxDeployment({ replicas: 1 }), 'other'));
    assert.match(err.message, /conflict with "ctl" with subresource "scale": \.spec\.replicas/);
  });
});
