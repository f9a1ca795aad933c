import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apply } from '../../../internal/patch/server-side-apply.ts';
import { recordUpdate } from '../../../internal/patch/update-managed-fields.ts';
import type { RecordUpdateOptions } from '../../../internal/patch/update-managed-fields.ts';
import { FieldSet } from '../../../internal/patch/field-set.ts';
import { configMapSchema, deploymentSchema, nginxDeployment } from './fixtures.ts';

type Obj = Record<string, unknown>;
const t0 = '2026-11-22T10:00:00Z';
const t1 = '2026-11-22T11:00:00Z';

const cm = (data: Record<string, string>, managedFields?: unknown): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns', ...(managedFields !== undefined ? { managedFields } : {}) },
  data,
});

function update(oldObject: Obj | null, newObject: Obj, manager: string, extra: Partial<RecordUpdateOptions> = {}) {
  return recordUpdate({ oldObject, newObject, manager, apiVersion: 'v1', schema: configMapSchema, now: t1, ...extra });
}
const trees = (mf: { manager: string; fieldsV1: unknown }[]) => Object.fromEntries(mf.map((e) => [e.manager, e.fieldsV1]));

describe('recordUpdate (non-apply writes)', () => {
  it('gives the creator every field, marking added maps and list items with "."', () => {
    const created = nginxDeployment();
    (created['metadata'] as Obj)['labels'] = { app: 'nginx' };
    const mf = recordUpdate({ oldObject: null, newObject: created, manager: 'kubectl-create', apiVersion: 'apps/v1', schema: deploymentSchema, now: t0 });
    assert.deepEqual(mf, [{
      manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: t0, fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          '.': {}, 'f:replicas': {},
          'f:template': { '.': {}, 'f:spec': { '.': {}, 'f:containers': { '.': {}, 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        },
      },
    }]);
  });

  it('rule 3: takes changed fields from other managers without conflict and keeps the rest with them', () => {
    const live = cm({ a: '1', b: '2' });
    const applied = apply({ live: null, applied: live, manager: 'applier', apiVersion: 'v1', force: false, schema: configMapSchema, now: t0 });
    const mf = update(applied.object, cm({ a: 'changed', b: '2' }, applied.managedFields), 'editor');
    assert.deepEqual(trees(mf), { applier: { 'f:data': { 'f:b': {} } }, editor: { 'f:data': { 'f:a': {} } } });
    assert.deepEqual(mf.map((e) => e.operation), ['Apply', 'Update']);
  });

  it('rule 3: removed fields leave every manager, and a manager left with nothing is dropped', () => {
    const first = update(null, cm({ a: '1' }), 'creator', { now: t0 });
    const keptEmpty = update(cm({ a: '1' }, first), cm({}, first), 'cleaner');
    assert.deepEqual(trees(keptEmpty), { creator: { 'f:data': {} } }, 'the emptied map itself is still there and still owned');
    const emptied = cm({}, first);
    delete emptied['data'];
    assert.deepEqual(update(cm({ a: '1' }, first), emptied, 'cleaner'), []);
  });

  it('rule 7: managedFields [{}] resets ownership; the writer then owns only what it changed', () => {
    const first = update(null, cm({ a: '1', b: '2' }), 'creator', { now: t0 });
    const mf = update(cm({ a: '1', b: '2' }, first), cm({ a: '1', b: '3' }, [{}]), 'resetter');
    assert.deepEqual(trees(mf), { resetter: { 'f:data': { 'f:b': {} } } });
    assert.deepEqual(update(cm({ a: '1' }, first), cm({ a: '1' }, [{}]), 'resetter'), []);
  });

  it('rule 7: an empty managedFields list does not reset ownership', () => {
    const first = update(null, cm({ a: '1' }), 'creator', { now: t0 });
    const mf = update(cm({ a: '1' }, first), cm({ a: '1', b: '2' }, []), 'writer');
    assert.deepEqual(trees(mf), { creator: { 'f:data': { '.': {}, 'f:a': {} } }, writer: { 'f:data': { 'f:b': {} } } });
  });

  it('managedFields sent with the write replace the stored ones', () => {
    const first = update(null, cm({ a: '1' }), 'creator', { now: t0 });
    const sent = [{ manager: 'someone', operation: 'Update', apiVersion: 'v1', time: t0, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
    const mf = update(cm({ a: '1' }, first), cm({ a: '1' }, sent), 'writer');
    assert.deepEqual(trees(mf), { someone: { 'f:data': { 'f:a': {} } } });
  });

  it('gives the writer every field of an object that has no managedFields', () => {
    const mf = update(cm({ a: '1' }), cm({ a: '1', b: '2' }), 'writer');
    assert.deepEqual(trees(mf), { writer: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } } });
  });

  it('keeps the entry time when the writer changed nothing', () => {
    const first = update(null, cm({ a: '1' }), 'w', { now: t0 });
    const mf = update(cm({ a: '1' }, first), cm({ a: '1' }), 'w');
    assert.equal(mf[0]?.time, t0);
  });

  it('keeps one entry per manager and API version', () => {
    const first = update(null, cm({ a: '1' }), 'w', { now: t0, apiVersion: 'v1' });
    const mf = update(cm({ a: '1' }, first), cm({ a: '1', b: '2' }), 'w', { apiVersion: 'v2' });
    assert.deepEqual(mf.map((e) => [e.manager, e.apiVersion]), [['w', 'v1'], ['w', 'v2']]);
  });

  it('never credits ignored fields (e.g. status reset on the main resource)', () => {
    const mf = update(null, { ...cm({ a: '1' }), status: { x: 1 } }, 'w', { ignored: new FieldSet([[{ kind: 'field', name: 'status' }]]) });
    assert.deepEqual(trees(mf), { w: { 'f:data': { '.': {}, 'f:a': {} } } });
  });

  it('merges the oldest Update managers into ancient-changes beyond ten', () => {
    let live = cm({});
    let mf: unknown = [];
    for (let i = 0; i < 12; i++) {
      const next = cm({ ...(live['data'] as Record<string, string>), [`k${i}`]: 'v' }, mf);
      mf = recordUpdate({ oldObject: live, newObject: next, manager: `m${i}`, apiVersion: 'v1', schema: configMapSchema, now: `2026-11-22T10:${String(i).padStart(2, '0')}:00Z` });
      live = cm(next['data'] as Record<string, string>, mf);
    }
    const names = (mf as { manager: string }[]).map((e) => e.manager);
    assert.equal(names.length, 10);
    assert.ok(names.includes('ancient-changes'));
    assert.ok(!names.includes('m0') && !names.includes('m1') && !names.includes('m2'));
  });
});
