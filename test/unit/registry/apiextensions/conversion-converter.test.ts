// makeConverter's checks and the None strategy: both versions must be the CRD's, None changes only
// apiVersion, objects already at the version come back untouched, errors are 500s in kube's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConversionError, makeConverter } from '../../../../internal/registry/apiextensions/conversion/index.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';

function crd(conversion?: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: { group: 'stable.example.com', names: { kind: 'CronTab', plural: 'crontabs' }, scope: 'Namespaced', versions: [{ name: 'v1' }, { name: 'v2' }], ...(conversion === undefined ? {} : { conversion }) },
  };
}

const v1 = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a', labels: { x: 'y' } }, spec: { cronSpec: '* * * * *' } };

test('None changes only apiVersion and leaves the input as it was', async () => {
  const [converted] = await makeConverter(crd({ strategy: 'None' })).convert([v1], 'stable.example.com/v2');
  assert.deepEqual(converted, { ...v1, apiVersion: 'stable.example.com/v2' });
  assert.equal(v1.apiVersion, 'stable.example.com/v1');
});

test('a CRD without spec.conversion converts as None', async () => {
  const [converted] = await makeConverter(crd()).convert([v1], 'stable.example.com/v2');
  assert.equal(converted?.apiVersion, 'stable.example.com/v2');
});

test('objects already at the version are returned as they are, in order', async () => {
  const v2 = { ...v1, apiVersion: 'stable.example.com/v2', metadata: { name: 'b' } };
  const out = await makeConverter(crd()).convert([v1, v2], 'stable.example.com/v2');
  assert.equal(out[1], v2);
  assert.deepEqual(out.map((o) => (o.metadata as { name: string }).name), ['a', 'b']);
  assert.deepEqual(await makeConverter(crd()).convert([], 'stable.example.com/v2'), []);
});

test('a version the CRD does not have is refused, as a 500', async () => {
  const converter = makeConverter(crd());
  await assert.rejects(converter.convert([v1], 'stable.example.com/v3'), (err: unknown) => {
    assert.ok(err instanceof ConversionError && err instanceof StatusError);
    assert.equal(err.code, 500);
    assert.equal(err.message, 'request to convert CR to an invalid group/version: stable.example.com/v3');
    return true;
  });
  await assert.rejects(converter.convert([{ ...v1, apiVersion: 'stable.example.com/v0' }], 'stable.example.com/v2'), { message: 'request to convert CR from an invalid group/version: stable.example.com/v0' });
  await assert.rejects(converter.convert([v1, { ...v1, apiVersion: 'stable.example.com/v9' }], 'stable.example.com/v2'), { message: 'request to convert CR list failed, list index 1 has invalid group/version: stable.example.com/v9' });
  await assert.rejects(converter.convert([v1], 'other.example.com/v2'), { message: 'stable.example.com/v1, Kind=CronTab is unstructured and is not suitable for converting to "other.example.com/v2"' });
});

test('an unknown strategy is refused when the converter is made', () => {
  assert.throws(() => makeConverter(crd({ strategy: 'Magic' })), { message: 'unknown conversion strategy "Magic" for CRD crontabs.stable.example.com' });
});

test('a webhook the server cannot speak to is refused before any call', async () => {
  const converter = makeConverter(crd({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v2'] } }));
  await assert.rejects(converter.convert([v1], 'stable.example.com/v2'), { message: 'no supported conversion review versions' });
});

test('the Webhook strategy never calls for objects already at the version, nor for empty objects', async () => {
  const converter = makeConverter(crd({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v1'] } }));
  const v2 = { ...v1, apiVersion: 'stable.example.com/v2' };
  assert.deepEqual(await converter.convert([v2], 'stable.example.com/v2'), [v2]);
  assert.deepEqual(await converter.convert([{ apiVersion: 'stable.example.com/v1', kind: 'CronTab' }], 'stable.example.com/v2'), [{ apiVersion: 'stable.example.com/v2', kind: 'CronTab' }]);
});
