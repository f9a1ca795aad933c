// createdFields (the one-walk ownership of a created object) must give exactly what the general
// route gives: compare the object with nothing, keep the added fields, strip the unowned ones.
// Random objects shaped by the real Pod and Deployment schemas, with the odd shapes clients send
// (nulls, empty containers, duplicate and keyless list items, a value of the wrong type).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareObjects } from '../../../internal/patch/compare.ts';
import { createdFields } from '../../../internal/patch/created-fields.ts';
import { PatchError } from '../../../internal/patch/errors.ts';
import { FieldSet, toFieldsV1, type FieldsV1 } from '../../../internal/patch/field-set.ts';
import { changedFields } from '../../../internal/patch/managed-fields.ts';
import { recordUpdate } from '../../../internal/patch/update-managed-fields.ts';
import type { Schema } from '../../../internal/patch/schema.ts';
import { deployments } from '../../../internal/registry/apps/deployments.ts';
import { pods } from '../../../internal/registry/core/pods.ts';
import { objectPatchSchema } from '../../../internal/registry/schema/patch-schema.ts';
import { seededRandom } from '../../interaction/rng.ts';

class Generator {
  constructor(private readonly rand: () => number) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }

  /** A value for `schema`; now and then one of another shape. */
  value(schema: Schema | undefined, depth: number): unknown {
    const r = this.rand();
    if (r < 0.04) return null;
    if (r < 0.06) return this.pick(['text', 7, true, {}, []]);
    if (depth > 6 || schema === undefined) return this.pick(['a', 'b', 1, 2, false]);
    if (schema.type === 'array' || schema.items !== undefined) {
      const items: unknown[] = [];
      const count = Math.floor(this.rand() * 4);
      for (let i = 0; i < count; i++) items.push(this.value(schema.items, depth + 1));
      // A duplicate now and then: the first item of an identity stands for it.
      if (items.length > 0 && this.rand() < 0.2) items.push(structuredClone(items[0]));
      return items;
    }
    if (schema.properties !== undefined) {
      const out: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(schema.properties)) if (this.rand() < 0.35) out[name] = this.value(field, depth + 1);
      return out;
    }
    if (typeof schema.additionalProperties === 'object') {
      const out: Record<string, unknown> = {};
      const count = Math.floor(this.rand() * 3);
      for (let i = 0; i < count; i++) out[this.pick(['app', 'tier', 'x', 'y', 'constructor', 'toString'])] = this.value(schema.additionalProperties, depth + 1);
      return out;
    }
    return this.pick(['a', 'b', 'c', 80, 443, 'TCP', 'UDP', true]);
  }
}

type Outcome = { fields: FieldsV1 | null } | { error: string };

function viaComparison(obj: Record<string, unknown>, schema: Schema, ignored?: FieldSet): Outcome {
  try {
    const set = changedFields(compareObjects({}, obj, schema), ignored);
    return { fields: set.isEmpty() ? null : toFieldsV1(set) };
  } catch (err) {
    if (err instanceof PatchError) return { error: 'PatchError' };
    throw err;
  }
}

function inOneWalk(obj: Record<string, unknown>, schema: Schema, ignored?: FieldSet): Outcome {
  try {
    return { fields: createdFields(obj, schema, ignored === undefined ? undefined : toFieldsV1(ignored)) };
  } catch (err) {
    if (err instanceof PatchError) return { error: 'PatchError' };
    throw err;
  }
}

const field = (...names: string[]) => names.map((name) => ({ kind: 'field' as const, name }));
const ignoredSets: (FieldSet | undefined)[] = [undefined, new FieldSet([field('status')]), new FieldSet([field('metadata'), field('spec')]), new FieldSet([field('spec', 'template', 'metadata')])];

describe('createdFields', () => {
  for (const [kind, decl] of [['Pod', pods], ['Deployment', deployments]] as const) {
    it(`owns what comparing a new ${kind} with nothing adds, over 1,500 random objects`, () => {
      const schema = objectPatchSchema(decl);
      for (let seed = 1; seed <= 1500; seed++) {
        const object = new Generator(seededRandom(seed)).value(schema, 0);
        if (typeof object !== 'object' || object === null || Array.isArray(object)) continue;
        const obj = { apiVersion: 'v1', kind, ...object } as Record<string, unknown>;
        const ignored = ignoredSets[seed % ignoredSets.length];
        assert.deepEqual(JSON.stringify(inOneWalk(obj, schema, ignored)), JSON.stringify(viaComparison(obj, schema, ignored)), `seed ${seed}: ${JSON.stringify(obj)}`);
      }
    });
  }

  it('strips identity and server-set metadata but keeps the writer\'s labels', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n', uid: 'u', creationTimestamp: 't', labels: { app: 'x' } }, data: { k: 'v' } };
    assert.deepEqual(createdFields(obj, objectPatchSchema(pods)), { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
  });

  it('walks fields named after Object.prototype members as any other (the general route too)', () => {
    const obj = JSON.parse('{"spec":{"constructor":{"a":1},"__proto__":{"b":2},"toString":"x"}}') as Record<string, unknown>;
    const expected = { 'f:spec': { '.': {}, 'f:__proto__': { '.': {}, 'f:b': {} }, 'f:constructor': { '.': {}, 'f:a': {} }, 'f:toString': {} } };
    assert.deepEqual(createdFields(obj, undefined), expected);
    assert.deepEqual(viaComparison(obj, {}), { fields: expected });
  });

  it('owns nothing in an object of identity fields only', () => {
    assert.equal(createdFields({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, undefined), null);
  });
});

describe('recordUpdate of a create', () => {
  it('gives the writer one entry with the fields of the one-walk route, sub-resource included', () => {
    const newObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] }, status: { phase: 'Pending' } };
    const schema = objectPatchSchema(pods);
    const entries = recordUpdate({ oldObject: null, newObject, manager: 'kubectl', apiVersion: 'v1', schema, now: '2026-11-29T00:00:00Z', subresource: 'status', ignored: new FieldSet([field('status')]) });
    assert.deepEqual(entries, [{
      manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-11-29T00:00:00Z', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { '.': {}, 'f:containers': { '.': {}, 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      subresource: 'status',
    }]);
  });

  it('gives the creator every field even when the create sends managedFields of others', () => {
    const sent = [{ manager: 'other', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } }];
    const entries = recordUpdate({ oldObject: null, newObject: { metadata: { name: 'c', managedFields: sent }, data: { k: 'v', j: 'w' } }, manager: 'me', apiVersion: 'v1', schema: undefined, now: 't' });
    assert.deepEqual(entries.map((e) => e.manager).sort(), ['me']);
    assert.deepEqual(entries[0]!.fieldsV1, { 'f:data': { '.': {}, 'f:j': {}, 'f:k': {} } });
  });
});
