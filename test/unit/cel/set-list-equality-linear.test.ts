// Equality and `+` of set-lists hash their scalar items (kube's unstructuredSetList does too), so
// 20,000-item sets compare and merge in well under a second; the merge is charged by the sizes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { celList, celUint, type CelValue } from '@bufbuild/cel';
import { validateRules } from '../../../internal/cel/index.ts';
import { celEquals } from '../../../internal/cel/equality.ts';
import { concatLists } from '../../../internal/cel/list-concat.ts';
import { markList } from '../../../internal/cel/list-kinds.ts';

const setList = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } };
const schemaFor = (rule: string) => ({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule }], properties: { a: setList, b: setList } } } }) as never;

test('set-list equality and + are near-linear: 20,000-item sets', () => {
  const n = 20_000;
  const a = Array.from({ length: n }, (_, i) => i);
  const object = (b: number[]) => ({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' }, spec: { a, b } });
  let start = performance.now();
  assert.deepEqual(validateRules(schemaFor('self.a == self.b'), object([...a].reverse()), undefined).errors, []);
  assert.equal(validateRules(schemaFor('self.a == self.b'), object(a.map((x) => x + 1)), undefined).errors.length, 1);
  assert.ok(performance.now() - start < 3000, `equality took ${performance.now() - start}ms`);
  start = performance.now();
  assert.deepEqual(validateRules(schemaFor('self.a + self.b == self.a'), object([...a].reverse()), undefined).errors, []);
  assert.deepEqual(validateRules(schemaFor('size(self.a + self.b) == 40000'), object(a.map((x) => x + n)), undefined).errors, []);
  assert.ok(performance.now() - start < 3000, `merge took ${performance.now() - start}ms`);
});

const scalar = (x: CelValue, y: CelValue): boolean => {
  const num = (v: CelValue) => (typeof v === 'bigint' ? Number(v) : typeof v === 'object' && v !== null && 'value' in v ? Number((v as { value: bigint }).value) : v);
  return num(x) === num(y) || (typeof x === 'string' && x === y);
};
const set = (items: CelValue[]) => markList(celList(items), { listType: 'set' });

test('set-list equality: hashed matching keeps the pairwise results', () => {
  assert.equal(celEquals(set([1n, 2n, 3n]), set([3n, 1n, 2n]), scalar), true);
  assert.equal(celEquals(set([1n, 1n, 2n]), set([1n, 2n, 2n]), scalar), false, 'each item is matched once');
  assert.equal(celEquals(set([1n, 2.5]), set([2.5, celUint(1n)]), scalar), true, 'numbers of different kinds meet by value');
  assert.equal(celEquals(set([Number.NaN]), set([Number.NaN]), scalar), false, 'NaN equals nothing');
  assert.equal(celEquals(set([celList([1n]), 'x']), set(['x', celList([1n])]), scalar), true, 'non-scalar items pair up one by one');
  assert.equal(celEquals(set(['1']), set([1n]), scalar), false);
});

test('set-list +: appends the right side\'s new items in order, once', () => {
  const merged = concatLists(set([1n, 2n]), set([3n, 2n, 4n, 3n, celList([5n]), celList([5n])]), scalar);
  assert.ok(merged !== undefined);
  assert.deepEqual([...merged].slice(0, 4), [1n, 2n, 3n, 4n]);
  assert.equal(merged.size, 5);
});

test('set-list equality: sets of atomic maps are hashed too', () => {
  const n = 20_000;
  const itemSchema = { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { k: { type: 'integer' }, v: { type: 'string' } } };
  const objectSet = { type: 'array', 'x-kubernetes-list-type': 'set', items: itemSchema };
  const schema = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a == self.b' }], properties: { a: objectSet, b: objectSet } } } } as never;
  const a = Array.from({ length: n }, (_, i) => ({ k: i, v: `v${i}` }));
  const object = (b: unknown[]) => ({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' }, spec: { a, b } });
  const start = performance.now();
  assert.deepEqual(validateRules(schema, object([...a].reverse().map((x) => ({ v: x.v, k: x.k }))), undefined).errors, []);
  assert.equal(validateRules(schema, object(a.map((x) => ({ ...x, v: `w${x.k}` }))), undefined).errors.length, 1);
  assert.ok(performance.now() - start < 3000, `took ${performance.now() - start}ms`);
});
