// Behaviours the Kubernetes documentation states, checked against its stated results: the example
// rules of "Common Expression Language in Kubernetes" (each on a value that satisfies it and one
// that breaks it), and the list and URL library examples. Counted in the final test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateRules } from '../../../internal/cel/crd-rules.ts';
import { compileProgram } from '../../../internal/cel/program.ts';
import { dynamicValue } from '../../../internal/cel/json-values.ts';
import type { StructuralSchema } from '../../../internal/cel/schema.ts';

let checked = 0;

const str: StructuralSchema = { type: 'string' };
const int: StructuralSchema = { type: 'integer' };
const strings: StructuralSchema = { type: 'array', items: str };
const named: StructuralSchema = { type: 'object', properties: { name: str, value: str, key: str, foo: int } };

/** One documented rule on the node `schema`; `good` must pass, `bad` must fail. */
function documentedRule(rule: string, schema: StructuralSchema, good: unknown, bad: unknown): void {
  const root: StructuralSchema = { ...schema, 'x-kubernetes-validations': [{ rule }] };
  assert.deepEqual(validateRules(root, good, undefined).errors, [], `${rule} should hold`);
  const errors = validateRules(root, bad, undefined).errors;
  assert.equal(errors.length, 1, `${rule} should fail`);
  assert.equal(errors[0]?.message.endsWith(`failed rule: ${rule}`), true, errors[0]?.message);
  checked++;
}

test('the example rules of the Kubernetes CEL documentation', () => {
  documentedRule('self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
    { type: 'object', properties: { minReplicas: int, replicas: int, maxReplicas: int } }, { minReplicas: 1, replicas: 2, maxReplicas: 3 }, { minReplicas: 1, replicas: 4, maxReplicas: 3 });
  documentedRule("'Available' in self.stateCounts",
    { type: 'object', properties: { stateCounts: { type: 'object', additionalProperties: int } } }, { stateCounts: { Available: 1 } }, { stateCounts: { Pending: 1 } });
  documentedRule('(self.list1.size() == 0) != (self.list2.size() == 0)',
    { type: 'object', properties: { list1: strings, list2: strings } }, { list1: ['a'], list2: [] }, { list1: ['a'], list2: ['b'] });
  documentedRule("self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
    { type: 'object', properties: { envars: { type: 'array', items: named } } }, { envars: [{ name: 'MY_ENV', value: 'abc' }, { name: 'X', value: '1' }] }, { envars: [{ name: 'MY_ENV', value: 'a1' }] });
  documentedRule('has(self.expired) && self.created + self.ttl < self.expired',
    { type: 'object', properties: { created: { type: 'string', format: 'date-time' }, expired: { type: 'string', format: 'date-time' }, ttl: { type: 'string', format: 'duration' } } },
    { created: '2024-01-01T00:00:00Z', ttl: '1h', expired: '2024-01-01T02:00:00Z' }, { created: '2024-01-01T00:00:00Z', ttl: '3h', expired: '2024-01-01T02:00:00Z' });
  documentedRule("self.health.startsWith('ok')", { type: 'object', properties: { health: str } }, { health: 'ok-1' }, { health: 'bad' });
  documentedRule("self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
    { type: 'object', properties: { widgets: { type: 'array', items: named } } }, { widgets: [{ key: 'x', foo: 5 }] }, { widgets: [{ key: 'x', foo: 50 }, { key: 'y', foo: 1 }] });
  documentedRule("type(self) == string ? self == '99%' : self == 42", { 'x-kubernetes-int-or-string': true }, '99%', 41);
  documentedRule("type(self) == string ? self == '99%' : self == 42", { 'x-kubernetes-int-or-string': true }, 42, '98%');
  documentedRule('self.metadata.name.startsWith(self.prefix)', { type: 'object', properties: { prefix: str } }, { metadata: { name: 'ab-1' }, prefix: 'ab' }, { metadata: { name: 'x' }, prefix: 'ab' });
  documentedRule('self.set1.all(e, !(e in self.set2))', { type: 'object', properties: { set1: strings, set2: strings } }, { set1: ['a'], set2: ['b'] }, { set1: ['a'], set2: ['a'] });
  documentedRule('size(self.names) == size(self.details) && self.names.all(n, n in self.details)',
    { type: 'object', properties: { names: strings, details: { type: 'object', additionalProperties: str } } }, { names: ['a'], details: { a: 'x' } }, { names: ['a'], details: { b: 'x' } });
  documentedRule('size(self.clusters.filter(c, c.name == self.primary)) == 1',
    { type: 'object', properties: { primary: str, clusters: { type: 'array', items: named } } }, { primary: 'a', clusters: [{ name: 'a' }, { name: 'b' }] }, { primary: 'c', clusters: [{ name: 'a' }] });
});

function evaluate(expression: string, vars: Record<string, unknown> = {}): unknown {
  const compiled = compileProgram(expression, Object.keys(vars));
  assert.ok(compiled.program, compiled.error);
  const bound = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, dynamicValue(v)]));
  const outcome = compiled.program.run(bound, 1_000_000);
  return 'error' in outcome ? { error: outcome.error } : outcome.value;
}

function documented(expression: string, vars: Record<string, unknown>, expected: unknown): void {
  assert.deepEqual(evaluate(expression, vars), expected, expression);
  checked++;
}

test('the list library examples of the Kubernetes CEL documentation', () => {
  documented('names.isSorted()', { names: ['a', 'b', 'c'] }, true);
  documented('names.isSorted()', { names: ['b', 'a'] }, false);
  documented('items.map(x, x.weight).sum() == 1.0', { items: [{ weight: 0.25 }, { weight: 0.75 }] }, true);
  documented('lowPriorities.map(x, x.priority).max() < highPriorities.map(x, x.priority).min()', { lowPriorities: [{ priority: 1 }, { priority: 2 }], highPriorities: [{ priority: 3 }, { priority: 4 }] }, true);
  documented("names.indexOf('should-be-first') == 1", { names: ['a', 'should-be-first'] }, true);
});

test('the URL library examples of the Kubernetes CEL documentation', () => {
  documented("url('https://example.com:80/').getHost() == 'example.com:80'", {}, true);
  documented("url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'", {}, true);
});

test('documented behaviours checked: 13 example rules (each both ways), 5 list-library and 2 URL-library examples', () => {
  assert.equal(checked, 20);
});
