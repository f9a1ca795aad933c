// The built-in kinds' schemas come from the official v1.28 OpenAPI document through the generator,
// and a value passes them only when a Go client can decode it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { builtinDeclarations } from '../../../internal/registry/resource-registry.ts';
import { builtinSchema } from '../../../internal/registry/schema/builtin-schemas.ts';
import { checkSchema, objectSchema } from '../../../internal/registry/schema/schema-check.ts';
import { base64Error, quantityError, timeError } from '../../../internal/registry/schema/wire-formats.ts';
import { deployments } from '../../../internal/registry/apps/deployments.ts';
import { pods } from '../../../internal/registry/core/pods.ts';
import { secrets } from '../../../internal/registry/core/secrets.ts';

test('the generated schemas are what the vendored OpenAPI document gives (make generate is not needed)', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate-builtin-schemas.ts', '--check'], { encoding: 'utf8' });
  assert.match(out, /is current/);
});

test('every built-in declaration takes its fields from the document, with no field left undescribed', () => {
  for (const decl of builtinDeclarations) {
    const schema = objectSchema(decl);
    assert.ok(Object.keys(decl.fields).length > 0, `${decl.kind} has fields`);
    const open: string[] = [];
    const seen = new Set<unknown>();
    const visit = (s: typeof schema, path: string): void => {
      if (seen.has(s)) return;
      seen.add(s);
      if (s.preserveUnknown === true) open.push(path);
      for (const [k, v] of Object.entries(s.properties ?? {})) visit(v, `${path}.${k}`);
      if (s.items !== undefined) visit(s.items, `${path}[]`);
      if (s.additionalProperties !== undefined) visit(s.additionalProperties, `${path}{}`);
    };
    visit(schema, decl.kind);
    assert.deepEqual(open, [], `${decl.kind}: no structure keeps unknown fields`);
  }
  assert.equal(builtinSchema('io.k8s.api.core.v1.PodSpec').properties?.containers?.items?.definition, 'io.k8s.api.core.v1.Container');
});

test('a self-referring definition (JSONSchemaProps) resolves to a cycle, not an endless expansion', () => {
  const props = builtinSchema('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps');
  assert.equal(props.properties?.properties?.additionalProperties, props);
});

test('integers outside their Go type are decode errors naming the struct field and type', () => {
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 2147483648, selector: {}, template: {} } };
  assert.deepEqual(checkSchema(deployment, objectSchema(deployments), false, 'Deployment').decodeErrors, ['json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32']);
  deployment.spec.replicas = 1e23;
  assert.match(checkSchema(deployment, objectSchema(deployments), false, 'Deployment').decodeErrors[0] ?? '', /cannot unmarshal number 1e\+23 into Go struct field DeploymentSpec\.spec\.replicas of type int32/);
  deployment.spec.replicas = -2147483648;
  assert.deepEqual(checkSchema(deployment, objectSchema(deployments), false, 'Deployment').decodeErrors, []);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { activeDeadlineSeconds: 2 ** 64, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 70000.5 }] }] } };
  assert.deepEqual(checkSchema(pod, objectSchema(pods), false, 'Pod').decodeErrors, [
    'json: cannot unmarshal number 18446744073709552000 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64',
    'json: cannot unmarshal number 70000.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
  ]);
});

test('quantities: malformed text is refused with apimachinery\'s messages, numbers become their text', () => {
  assert.equal(quantityError('1Qi'), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  assert.equal(quantityError('lots'), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  // Go's scanner stops at the second point and finds no suffix after it: the form is wrong.
  assert.equal(quantityError('1.2.3'), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  assert.equal(quantityError('.Ei'), 'unable to parse numeric part of quantity');
  assert.equal(quantityError('1kk'), "unable to parse quantity's suffix");
  for (const ok of ['1', '500m', '1.5Gi', '2e3', '1E', '+3', '.5', ' 1Mi ', '1e-3']) assert.equal(quantityError(ok), undefined, ok);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 2, memory: '1Qi' } } }] } };
  const result = checkSchema(pod, objectSchema(pods), false, 'Pod');
  assert.deepEqual(result.decodeErrors, ["quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"]);
  assert.equal(pod.spec.containers[0]?.resources.limits.cpu, '2', 'a number is stored as the text a Go client writes back');
});

test('times and base64 bytes are checked as Go decodes them', () => {
  assert.equal(timeError('2026-11-26T10:00:00Z'), undefined);
  assert.equal(timeError('2026-11-26T10:00:00.123456+02:00'), undefined);
  assert.match(timeError('yesterday') ?? '', /^parsing time "yesterday" as "2006-01-02T15:04:05Z07:00"/);
  assert.notEqual(timeError('2026-13-01T00:00:00Z'), undefined);
  assert.equal(base64Error('aGVsbG8='), undefined);
  assert.equal(base64Error('aGVs\nbG8='), undefined);
  assert.equal(base64Error('not base64!'), 'illegal base64 data at input byte 3');
  assert.equal(base64Error('aGVsbG8'), 'illegal base64 data at input byte 4');
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: '%%%' } };
  assert.deepEqual(checkSchema(secret, objectSchema(secrets), false, 'Secret').decodeErrors, ['illegal base64 data at input byte 0']);
});
