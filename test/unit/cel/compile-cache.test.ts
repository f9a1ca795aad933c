// A rule is compiled once, not per request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedCache } from '../../../internal/bounded-cache.ts';
import { cachedProgram } from '../../../internal/cel/compile-cache.ts';
import { compileNode } from '../../../internal/cel/crd-compile.ts';
import { compileAdmissionExpression } from '../../../internal/cel/admission-expressions.ts';
import type { StructuralSchema } from '../../../internal/cel/schema.ts';

test('the same expression over the same variables gives the same program object', () => {
  const a = cachedProgram('self.x > 1', ['self', 'oldSelf']);
  const b = cachedProgram('self.x > 1', ['self', 'oldSelf']);
  assert.ok(a.program !== undefined);
  assert.equal(a.program, b.program);
  assert.notEqual(cachedProgram('self.x > 1', ['self']).program, a.program);
});

test('a schema node compiles its rules once; another node object compiles its own', () => {
  const schema: StructuralSchema = { type: 'object', properties: { x: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.x > 1' }] };
  const first = compileNode(schema, false);
  assert.equal(compileNode(schema, false), first);
  assert.equal(first.rules[0]?.program, compileNode({ ...schema }, false).rules[0]?.program, 'programs are shared across schemas');
  assert.notEqual(compileNode({ ...schema }, false), first);
});

test('admission expressions share compiled programs', () => {
  const a = compileAdmissionExpression('object.spec.replicas > 1', ['object', 'oldObject']);
  const b = compileAdmissionExpression('object.spec.replicas > 1', ['oldObject', 'object']);
  assert.equal(a.error, undefined);
  assert.equal(a.compiled?.estimatedCost, b.compiled?.estimatedCost);
});

test('the cache is bounded and drops its oldest entry', () => {
  const cache = new BoundedCache<number>(2);
  let made = 0;
  cache.get('a', () => ++made);
  cache.get('b', () => ++made);
  cache.get('a', () => ++made);
  cache.get('c', () => ++made);
  assert.equal(cache.size, 2);
  assert.equal(cache.get('a', () => ++made), 4);
  assert.equal(made, 4);
});
