// client-go's JSONPath as CRD printer columns use it: what each construct selects, which errors
// evaluation raises, and the parse errors client-go reports, word for word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, findResults, JsonPathError, parseColumnJsonPath, parseJsonPath, simpleJsonPathProblem } from '../../../../internal/registry/apiextensions/jsonpath.ts';

const pod = {
  metadata: { name: 'web-0', labels: { 'app.kubernetes.io/name': 'web', tier: 'front' } },
  spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }, { name: 'sidecar', image: 'envoy' }], replicas: 3 },
  status: {
    conditions: [
      { type: 'Ready', status: 'True', count: 2 },
      { type: 'Scheduled', status: 'False', count: 7, reason: 'Unschedulable' },
    ],
    empty: null,
  },
};

test('fields, quoted keys and escaped dots select values', () => {
  assert.deepEqual(evaluate('{.metadata.name}', pod), ['web-0']);
  assert.deepEqual(evaluate("{.metadata['name']}", pod), ['web-0']);
  assert.deepEqual(evaluate('{.metadata.labels.app\\.kubernetes\\.io/name}', pod), ['web']);
  assert.deepEqual(evaluate("{.metadata.labels['app\\.kubernetes\\.io/name']}", pod), ['web']);
  assert.deepEqual(evaluate('{$.spec.replicas}', pod), [3]);
});

test('a quoted key is split at unescaped dots, as client-go does', () => {
  assert.deepEqual(evaluate("{.metadata.labels['app.kubernetes.io/name']}", pod), []);
});

test('array indexes, negative indexes, slices, steps, wildcards and unions', () => {
  assert.deepEqual(evaluate('{.spec.containers[0].name}', pod), ['app']);
  assert.deepEqual(evaluate('{.spec.containers[-1].name}', pod), ['sidecar']);
  assert.deepEqual(evaluate('{.spec.containers[0:1].name}', pod), ['app']);
  assert.deepEqual(evaluate('{.spec.containers[::2].name}', pod), ['app']);
  assert.deepEqual(evaluate('{.spec.containers[*].name}', pod), ['app', 'sidecar']);
  assert.deepEqual(evaluate('{.spec.containers[1,0].name}', pod), ['sidecar', 'app']);
  assert.deepEqual(evaluate('{.metadata.labels.*}', pod), ['web', 'front']);
});

test('recursive descent finds every field of that name, maps walked by sorted key', () => {
  assert.deepEqual(evaluate('{..name}', pod), ['web-0', 'app', 'sidecar']);
  assert.deepEqual(evaluate('{..containerPort}', pod), [80]);
});

test('filters compare with ==, !=, <, > and test existence', () => {
  assert.deepEqual(evaluate('{.status.conditions[?(@.type=="Ready")].status}', pod), ['True']);
  assert.deepEqual(evaluate(`{.status.conditions[?(@.type!='Ready')].type}`, pod), ['Scheduled']);
  assert.deepEqual(evaluate('{.status.conditions[?(@.count>5)].type}', pod), ['Scheduled']);
  assert.deepEqual(evaluate('{.status.conditions[?(@.count<5)].type}', pod), ['Ready']);
  assert.deepEqual(evaluate('{.status.conditions[?(@.reason)].type}', pod), ['Scheduled']);
  // Different kinds never compare equal, so != matches them.
  assert.deepEqual(evaluate('{.status.conditions[?(@.count=="2")].type}', pod), []);
  assert.deepEqual(evaluate('{.status.conditions[?(@.count!="2")].type}', pod), ['Ready', 'Scheduled']);
});

test('missing keys give no result; without allowMissingKeys they are an error', () => {
  assert.deepEqual(evaluate('{.spec.nothing.deeper}', pod), []);
  assert.deepEqual(evaluate('{.status.empty}', pod), [null]);
  assert.deepEqual(evaluate('{.status.empty.deeper}', pod), []);
  assert.throws(() => findResults('{.spec.nothing}', pod), new JsonPathError('nothing is not found'));
});

test('evaluation errors carry client-go wording', () => {
  assert.throws(() => evaluate('{.spec.containers[5]}', pod), { message: 'array index out of bounds: index 5, length 2' });
  assert.throws(() => evaluate('{.spec.containers[0:9]}', pod), { message: 'array index out of bounds: index 8, length 2' });
  assert.throws(() => evaluate('{.metadata[0]}', pod), { message: 'map[string]interface {} is not array or slice' });
  assert.throws(() => evaluate('{.spec.containers[::0]}', pod), { message: 'step must be > 0' });
  assert.throws(() => evaluate('{.status.conditions[?(@.type=<"R")]}', pod), { message: 'unrecognized filter operator =<' });
});

test('text around actions and several actions make one result list each', () => {
  assert.deepEqual(findResults('name={.metadata.name} replicas={.spec.replicas}', pod), [['name='], ['web-0'], [' replicas='], [3]]);
  assert.deepEqual(evaluate('{.metadata.name}{"\\t"}', pod), ['web-0', '\t']);
});

test('parse errors are reported with client-go messages', () => {
  const errors: Record<string, string> = {
    '{.a': 'unclosed action',
    '{.a[}': 'unterminated array',
    '{.a[x]}': 'invalid array index x',
    '{.a[-]}': 'array index - is not a number',
    '{!}': "unrecognized character in action: U+0021 '!'",
    '{.a[?(@.b=="c"}': 'unterminated filter',
    '{.a[?(@.b=="c")}': 'unclosed array expect ]',
    '{"b}': 'unterminated quoted string',
    '{....a}': 'invalid multiple recursive descent',
    '{1.2.3}': 'cannot parse number 1.2.3',
  };
  for (const [text, error] of Object.entries(errors)) assert.deepEqual(parseJsonPath(text), { error }, text);
  assert.equal(parseJsonPath('{.spec.replicas}').error, undefined);
});

test('a column path is parsed wrapped in braces, as kube wraps it', () => {
  assert.equal(parseColumnJsonPath('.spec.replicas').error, undefined);
  assert.deepEqual(parseColumnJsonPath('.spec[x]'), { error: 'invalid array index x' });
  assert.deepEqual(evaluate(parseColumnJsonPath('.spec.replicas').path ?? '', pod), [3]);
});

test('kube validates a column path only as a simple path starting with a dot', () => {
  assert.equal(simpleJsonPathProblem('.spec.replicas'), undefined);
  assert.equal(simpleJsonPathProblem(''), 'must not be empty');
  assert.equal(simpleJsonPathProblem('spec.replicas'), 'must be a simple json path starting with .');
});
