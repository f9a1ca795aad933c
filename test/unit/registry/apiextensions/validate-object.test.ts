// Custom objects validated against their schema as kube-apiserver 1.28 does (kube-openapi's
// validator behind kubeOpenAPIResultToFieldErrors, embedded resources, list sets and maps), each
// failure with kube's field path and message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateAgainstSchema, validateCustomObject } from '../../../../internal/registry/apiextensions/schema/validate-object.ts';
import { goFloat } from '../../../../internal/registry/apiextensions/schema/go-values.ts';
import { crontabSchema, lines } from './crontab-fixture.ts';

type Entry = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function schemaWith(spec: Entry): Entry {
  const s = crontabSchema() as Entry;
  Object.assign(s.properties.spec.properties, spec);
  return s;
}

function check(spec: Entry, extra: Entry = {}): string[] {
  return lines(validateCustomObject({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' }, spec }, schemaWith(extra)));
}

test('a CronTab of kube\'s docs is valid', () => {
  assert.deepEqual(check({ cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 3 }), []);
});

test('types, as kube-openapi names them', () => {
  assert.deepEqual(check({ replicas: 'three', image: 5, cronSpec: null }), [
    'spec.cronSpec: Invalid value: "null": spec.cronSpec in body must be of type string: "null"',
    'spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer"',
    'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
  ]);
  assert.deepEqual(check({ replicas: 2.5 }), ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"']);
  assert.deepEqual(lines(validateCustomObject({ spec: [] }, crontabSchema())), ['spec: Invalid value: "array": spec in body must be of type object: "array"']);
});

test('int-or-string takes an integer or a string', () => {
  const port = { port: { 'x-kubernetes-int-or-string': true } };
  assert.deepEqual(check({ port: 80 }, port), []);
  assert.deepEqual(check({ port: 'http' }, port), []);
  assert.deepEqual(check({ port: true }, port), ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']);
});

test('nullable allows null', () => {
  assert.deepEqual(check({ note: null }, { note: { type: 'string', nullable: true } }), []);
});

test('numbers: minimum, maximum, exclusive bounds, multipleOf', () => {
  assert.deepEqual(check({ replicas: 0 }), ['spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1']);
  assert.deepEqual(check({ replicas: 11 }), ['spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10']);
  const bounded = { ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true, multipleOf: 0.25 } };
  assert.deepEqual(check({ ratio: 0 }, bounded), ['spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0']);
  assert.deepEqual(check({ ratio: 0.3 }, bounded), ['spec.ratio: Invalid value: 0.3: spec.ratio in body should be a multiple of 0.25']);
  assert.deepEqual(check({ count: 7 }, { count: { type: 'integer', multipleOf: 5 } }), ['spec.count: Invalid value: 7: spec.count in body should be a multiple of 5']);
});

test('strings: maxLength, minLength, pattern', () => {
  const name = { name: { type: 'string', minLength: 2, maxLength: 5 } };
  assert.deepEqual(check({ name: 'abcdef' }, name), ['spec.name: Too long: may not be longer than 5']);
  assert.deepEqual(check({ name: 'a' }, name), ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long']);
  assert.deepEqual(check({ cronSpec: 'often' }), [`spec.cronSpec: Invalid value: "often": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`]);
});

test('enum: Unsupported value with the allowed values', () => {
  const policy = { policy: { type: 'string', enum: ['Allow', 'Forbid', 'Replace'] } };
  assert.deepEqual(check({ policy: 'Sometimes' }, policy), ['spec.policy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']);
  assert.deepEqual(check({ level: 4 }, { level: { type: 'integer', enum: [1, 2, 3] } }), ['spec.level: Unsupported value: 4: supported values: "1", "2", "3"']);
});

test('arrays: maxItems, minItems, items', () => {
  const tags = { tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', maxLength: 3 } } };
  assert.deepEqual(check({ tags: ['a', 'b', 'cdef'] }, tags), ['spec.tags[2]: Too long: may not be longer than 3', 'spec.tags: Too many: 3: must have at most 2 items']);
  assert.deepEqual(check({ tags: [] }, tags), ['spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items']);
});

test('objects: required, maxProperties, minProperties, additionalProperties', () => {
  const s = crontabSchema() as Entry;
  s.properties.spec.required = ['cronSpec', 'image'];
  assert.deepEqual(lines(validateCustomObject({ spec: { image: 'x' } }, s)), ['spec.cronSpec: Required value']);
  s.required = ['spec'];
  assert.deepEqual(lines(validateCustomObject({}, s)), ['spec: Required value']);
  const labels = { labels: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } } };
  assert.deepEqual(check({ labels: { a: 'x', b: 'y' } }, labels), ['spec.labels: Too many: 2: must have at most 1 items']);
  assert.deepEqual(check({ labels: { a: 1 } }, labels), ['spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"']);
  assert.deepEqual(check({ env: {} }, { env: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } } }), ['spec.env: Invalid value: 0: spec.env in body should have at least 1 properties']);
});

test('formats of the CRD registry; unsupported formats are ignored', () => {
  const formats = {
    when: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    id: { type: 'string', format: 'uuid' },
    ip: { type: 'string', format: 'ipv4' },
    net: { type: 'string', format: 'cidr' },
    data: { type: 'string', format: 'byte' },
    wait: { type: 'string', format: 'duration' },
    mail: { type: 'string', format: 'email' },
    host: { type: 'string', format: 'hostname' },
    free: { type: 'string', format: 'k8s-anything' },
  };
  const good = { when: '2024-01-02T03:04:05Z', day: '2024-02-29', id: '0b3c6f0e-1c7a-4a2b-8a77-7a4a9f0d1e2c', ip: '10.0.0.1', net: '10.0.0.0/8', data: 'aGVsbG8=', wait: '1h30m', mail: 'a@example.com', host: 'example.com', free: '!' };
  assert.deepEqual(check(good, formats), []);
  const bad = { when: '2024-01-02', day: '2023-02-29', id: 'nope', ip: '10.0.0.256', net: '10.0.0.0/33', data: 'not base64!', wait: 'soon', mail: 'nobody', host: '-x-' };
  assert.deepEqual(check(bad, formats), [
    'spec.when: Invalid value: "2024-01-02": spec.when in body must be of type date-time: "2024-01-02"',
    'spec.day: Invalid value: "2023-02-29": spec.day in body must be of type date: "2023-02-29"',
    'spec.id: Invalid value: "nope": spec.id in body must be of type uuid: "nope"',
    'spec.ip: Invalid value: "10.0.0.256": spec.ip in body must be of type ipv4: "10.0.0.256"',
    'spec.net: Invalid value: "10.0.0.0/33": spec.net in body must be of type cidr: "10.0.0.0/33"',
    'spec.data: Invalid value: "not base64!": spec.data in body must be of type byte: "not base64!"',
    'spec.wait: Invalid value: "soon": spec.wait in body must be of type duration: "soon"',
    'spec.mail: Invalid value: "nobody": spec.mail in body must be of type email: "nobody"',
    'spec.host: Invalid value: "-x-": spec.host in body must be of type hostname: "-x-"',
  ]);
  assert.deepEqual(check({ size: 3000000000 }, { size: { type: 'integer', format: 'int32' } }), []);
});

test('allOf, anyOf, oneOf, not: composite errors at Go\'s nil path, then the best branch\'s', () => {
  const anyOf = { v: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] } };
  assert.deepEqual(check({ v: 'c' }, anyOf), [
    '<nil>: Invalid value: "": "spec.v" must validate at least one schema (anyOf)',
    `spec.v: Invalid value: "c": spec.v in body should match '^a'`,
  ]);
  const not = { v: { type: 'string', not: { enum: ['x'] } } };
  assert.deepEqual(check({ v: 'x' }, not), ['<nil>: Invalid value: "": "spec.v" must not validate the schema (not)']);
  const oneOf = { v: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: 'b$' }] } };
  assert.deepEqual(check({ v: 'ab' }, oneOf), ['<nil>: Invalid value: "": "spec.v" must validate one and only one schema (oneOf). Found 2 valid alternatives']);
  const allOf = { v: { type: 'string', allOf: [{ maxLength: 1 }] } };
  assert.deepEqual(check({ v: 'ab' }, allOf), ['spec.v: Too long: may not be longer than 1', '<nil>: Invalid value: "": "spec.v" must validate all the schemas (allOf). None validated']);
});

test('embedded resources need apiVersion and kind, and valid metadata', () => {
  const template = { template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } };
  assert.deepEqual(check({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } }, template), []);
  assert.deepEqual(check({ template: { metadata: { name: 'a/b', labels: { 'bad key!': 'x' } } } }, template), [
    'spec.template.apiVersion: Required value',
    'spec.template.kind: Required value',
    "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
    'spec.template.metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
  ]);
  assert.deepEqual(check({ template: { apiVersion: 'a/b/c', kind: 'Pod_' } }, template), [
    'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    "spec.template.kind: Invalid value: \"Pod_\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ]);
});

test('list-type set items and map keys are unique', () => {
  const lists = {
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
  };
  assert.deepEqual(check({ tags: ['a', 'b', 'a', 'a'], ports: [{ name: 'http', port: 80 }, { name: 'http', port: 8080 }] }, lists), [
    'spec.tags[2]: Duplicate value: "a"',
    'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}',
  ]);
});

test('a value validated at a path (CRD defaults) names its errors under it', () => {
  assert.deepEqual(lines(validateAgainstSchema('x', { type: 'integer' }, 'spec.x.default', false)), ['spec.x.default: Invalid value: "string":  in body must be of type integer: "string"']);
});

test('floats print as Go prints a float64', () => {
  assert.deepEqual([1e6, 123456, 0.5, 1.5e-5, 2000000.25, -3].map(goFloat), ['1e+06', '123456', '0.5', '1.5e-05', '2.00000025e+06', '-3']);
});

test('anyOf of required fields (Cilium\'s policy spec): the composite error, then the first branch\'s', () => {
  const s = { type: 'object', properties: { spec: { type: 'object', anyOf: [{ required: ['ingress'] }, { required: ['egress'] }], properties: { ingress: { type: 'array', items: { type: 'string' } }, egress: { type: 'array', items: { type: 'string' } }, enableDefaultDeny: { type: 'boolean' } } } } };
  assert.deepEqual(lines(validateCustomObject({ spec: { enableDefaultDeny: true } }, s)), ['<nil>: Invalid value: "": "spec" must validate at least one schema (anyOf)', 'spec.ingress: Required value']);
});

test('more formats: uri, mac, hostname, hexcolor, ipv6; password takes anything', () => {
  const formats = {
    link: { type: 'string', format: 'uri' },
    mac: { type: 'string', format: 'mac' },
    host: { type: 'string', format: 'hostname' },
    color: { type: 'string', format: 'hexcolor' },
    ip6: { type: 'string', format: 'ipv6' },
    secret: { type: 'string', format: 'password' },
  };
  assert.deepEqual(check({ link: 'https://example.com/a?b', mac: '00:1a:2b:3c:4d:5e', host: 'a.example.com', color: '#ffcc00', ip6: '2001:db8::1', secret: '' }, formats), []);
  assert.deepEqual(check({ link: 'relative/path', mac: '00:1a:2b', host: 'a..b', color: 'orange', ip6: '10.0.0.1' }, formats), [
    'spec.link: Invalid value: "relative/path": spec.link in body must be of type uri: "relative/path"',
    'spec.mac: Invalid value: "00:1a:2b": spec.mac in body must be of type mac: "00:1a:2b"',
    'spec.host: Invalid value: "a..b": spec.host in body must be of type hostname: "a..b"',
    'spec.color: Invalid value: "orange": spec.color in body must be of type hexcolor: "orange"',
    'spec.ip6: Invalid value: "10.0.0.1": spec.ip6 in body must be of type ipv6: "10.0.0.1"',
  ]);
});

test('patterns match as Go matches them, Go-only flag syntax included', () => {
  const code = { code: { type: 'string', pattern: '(?i)^[a-z]{2}\\z' } };
  assert.deepEqual(check({ code: 'Ab' }, code), []);
  assert.deepEqual(check({ code: 'Abc' }, code), [`spec.code: Invalid value: "Abc": spec.code in body should match '(?i)^[a-z]{2}\\z'`]);
});
