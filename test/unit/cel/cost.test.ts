// Cost limits (SPEC "Expression-language cost limits"): a deterministic unit counter, a
// worst-case estimate from schema bounds at CRD create/update, and a runtime budget that halts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '@bufbuild/cel';
import { estimateCost } from '../../../internal/cel/cost-estimate.ts';
import { declTypeOf } from '../../../internal/cel/decl-type.ts';
import { compileProgram } from '../../../internal/cel/program.ts';
import { checkSchemaRules } from '../../../internal/cel/crd-schema-rules.ts';
import { validateRules } from '../../../internal/cel/crd-rules.ts';
import { listLiteralBaseCost, perCallCostLimit } from '../../../internal/cel/limits.ts';
import type { StructuralSchema } from '../../../internal/cel/schema.ts';

const base = 'spec.validation.openAPIV3Schema';

function estimate(schema: StructuralSchema, expression: string): number {
  return estimateCost(parse(expression).expr, new Map([['self', declTypeOf(schema, false)]]));
}

function run(expression: string, limit = perCallCostLimit): { cost: number; error?: string; value?: unknown } {
  const compiled = compileProgram(expression, []);
  assert.ok(compiled.program, compiled.error);
  const outcome = compiled.program.run({}, limit);
  return 'error' in outcome ? { cost: outcome.cost, error: outcome.error } : { cost: outcome.cost, value: outcome.value };
}

test('comparisons cost 1; a list literal costs its fixed base', () => {
  assert.equal(run('1 < 2').cost, 1);
  assert.equal(run('1 == 1').cost, 1);
  assert.equal(run('[1, 2, 3]').cost, listLiteralBaseCost);
});

test('regex cost grows with length(regex) times length(input)', () => {
  const short = run("'aaaaaaaaaa'.matches('a+')").cost;
  const longInput = run(`'${'a'.repeat(1000)}'.matches('a+')`).cost;
  const longRegex = run(`'${'a'.repeat(1000)}'.matches('${'a'.repeat(40)}|a+')`).cost;
  assert.ok(longInput > short);
  assert.ok(longRegex > longInput * 5, `${longRegex} vs ${longInput}`);
});

test('the estimate of a rule over a bounded list matches kube: self.all(x, x.contains(\'gpu\')) costs 11, 30, 106, 414 per item for maxLength 16, 63, 253, 1024', () => {
  const perItem = [16, 63, 253, 1024].map((maxLength) => {
    const schema: StructuralSchema = { type: 'array', maxItems: 1000, items: { type: 'string', maxLength } };
    return (estimate(schema, "self.all(x, x.contains('gpu'))") - 2) / 1000;
  });
  assert.deepEqual(perItem, [11, 30, 106, 414]);
});

test('kube accepts at most 909,090 items of maxLength 16 for that rule, and so do we', () => {
  const at = (maxItems: number): readonly string[] => checkSchemaRules({
    type: 'object',
    properties: { spec: { type: 'object', properties: { tags: { type: 'array', maxItems, items: { type: 'string', maxLength: 16 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('gpu'))" }] } } } },
  }, base).errors.map((e) => e.message);
  assert.deepEqual(at(909_090), []);
  assert.equal(at(909_091).length, 1);
});

const nestedRegexRule = "self.all(x, self.all(y, x.matches('^[a-z]+$') && y.matches('^[a-z]+$')))";

test('a rule over an unbounded list of strings with a nested all and a regex is rejected at CRD compile time', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: nestedRegexRule }] } } } },
  };
  const { errors, totalCost } = checkSchemaRules(schema, base);
  const rulePath = `${base}.properties[spec].properties[names].x-kubernetes-validations[0].rule`;
  assert.deepEqual(errors, [
    { type: 'FieldValueForbidden', field: rulePath, message: 'Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)' },
    { type: 'FieldValueForbidden', field: rulePath, message: 'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema' },
    { type: 'FieldValueForbidden', field: base, message: 'Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)' },
  ]);
  assert.ok(totalCost > 100_000_000);
});

test('the same rule passes once maxItems and maxLength bound it', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { names: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 63 }, 'x-kubernetes-validations': [{ rule: nestedRegexRule }] } } } },
  };
  const { errors, costs } = checkSchemaRules(schema, base);
  assert.deepEqual(errors, []);
  assert.ok((costs[0]?.cost ?? 0) < 100_000, String(costs[0]?.cost));
});

test('a rule under an unbounded list is multiplied by how many times its node can occur', () => {
  const rule = { rule: "self.name.startsWith('a')" };
  const item: StructuralSchema = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 } }, 'x-kubernetes-validations': [rule] };
  const bounded = checkSchemaRules({ type: 'object', properties: { list: { type: 'array', maxItems: 10, items: item } } }, base);
  const unbounded = checkSchemaRules({ type: 'object', properties: { list: { type: 'array', items: item } } }, base);
  assert.equal(bounded.costs[0]?.cost, 10 * (unbounded.costs[0]?.cost ?? 0) / Math.floor(3 * 1024 * 1024 / (2 + 'name'.length + 2 + 4 + 1)));
});

test('an estimate just over the limit reports its exact factor', () => {
  const schema: StructuralSchema = { type: 'object', properties: { tags: { type: 'array', maxItems: 1_000_000, items: { type: 'string', maxLength: 16 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('gpu'))" }] } } };
  const [error] = checkSchemaRules(schema, base).errors;
  assert.match(error?.message ?? '', /exceeds budget by factor of 1\.100000x/);
});

test('a runtime blow-up is halted with kube\'s error', () => {
  const expression = '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, a + b + c + d + e + f > 0))))))';
  const started = process.hrtime.bigint();
  const outcome = run(expression);
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  assert.equal(outcome.error, 'operation cancelled: actual cost limit exceeded');
  assert.ok(outcome.cost > perCallCostLimit && outcome.cost < perCallCostLimit + 100);
  assert.ok(elapsedMs < 5000, `halted after ${elapsedMs} ms`);
});

test('a CRD rule over the per-call limit stops validation with kube\'s message', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { n: { type: 'array', items: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule: 'self.n.all(a, self.n.all(b, self.n.all(c, a + b + c >= 0)))' }, { rule: 'false', message: 'never reached' }] } },
  };
  const n = Array.from({ length: 60 }, (_, i) => i);
  const { errors, remainingBudget } = validateRules(schema, { spec: { n } }, undefined);
  assert.deepEqual(errors.map((e) => e.message), [
    "Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.n.all(a, self.n.all(b, self.n.all(c, a + b + c >= 0)))",
  ]);
  assert.equal(remainingBudget, -1);
});

test('the per-CRD runtime budget is shared by all rules; running out stops validation', () => {
  const item: StructuralSchema = { type: 'object', properties: { v: { type: 'array', items: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule: 'self.v.all(a, self.v.all(b, a + b >= 0))' }] };
  const schema: StructuralSchema = { type: 'object', properties: { items: { type: 'array', items: item } } };
  const v = Array.from({ length: 20 }, (_, i) => i);
  const { errors, remainingBudget } = validateRules(schema, { items: Array.from({ length: 30 }, () => ({ v })) }, undefined, { costBudget: 50_000 });
  assert.equal(remainingBudget, -1);
  assert.equal(errors.length, 1);
  assert.match(errors[0]?.field ?? '', /^items\[\d+\]$/);
  assert.equal(errors[0]?.message, 'Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run');
});
