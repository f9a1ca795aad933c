// The ConversionReview exchange's checks, each failure in kube's words: which review version is
// sent, what the request carries, and what an answer must hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseReviewVersion, conversionReview, convertedObjectsOf, unexpectedStatusMessage } from '../../../../internal/registry/apiextensions/conversion/conversion-review.ts';

const uid = '7f0b8c3e-0000-4000-8000-000000000001';

function answer(response: Record<string, unknown> | undefined, apiVersion = 'apiextensions.k8s.io/v1', kind = 'ConversionReview'): Record<string, unknown> {
  return { apiVersion, kind, ...(response === undefined ? {} : { response }) };
}

test('the first review version of the CRD this server speaks is chosen', () => {
  assert.equal(chooseReviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.equal(chooseReviewVersion(['v1']), 'v1');
  assert.equal(chooseReviewVersion(['v2']), undefined);
});

test('the request carries uid, desiredAPIVersion and the objects, beside an empty response', () => {
  const objects = [{ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a' } }];
  assert.deepEqual(conversionReview('k8s.io', 'v1', uid, 'stable.example.com/v2', objects), {
    kind: 'ConversionReview',
    apiVersion: 'apiextensions.k8s.io/v1',
    request: { uid, desiredAPIVersion: 'stable.example.com/v2', objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  });
});

test('a successful v1 answer gives its converted objects', () => {
  const converted = [{ apiVersion: 'stable.example.com/v2', kind: 'CronTab' }];
  assert.deepEqual(convertedObjectsOf('k8s.io', 'v1', uid, answer({ uid, result: { status: 'Success' }, convertedObjects: converted })), converted);
  assert.deepEqual(convertedObjectsOf('k8s.io', 'v1', uid, answer({ uid, result: { status: 'Success' } })), []);
});

test('a v1 answer of another kind or version is refused', () => {
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1', uid, answer({ uid, result: { status: 'Success' } }, 'apiextensions.k8s.io/v1beta1')), {
    message: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview',
  });
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1', uid, {}), { message: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=' });
});

test('an answer without a response is refused', () => {
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1', uid, answer(undefined)), { message: 'no response provided' });
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1beta1', uid, answer(undefined, 'whatever')), { message: 'no response provided' });
});

test('a v1 answer must carry the request uid; a v1beta1 answer never was checked', () => {
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1', uid, answer({ uid: 'other', result: { status: 'Success' } })), { message: `expected response.uid="${uid}", got "other"` });
  assert.deepEqual(convertedObjectsOf('k8s.io', 'v1beta1', uid, answer({ uid: 'other', result: { status: 'Success' } }, 'apiextensions.k8s.io/v1beta1')), []);
});

test('a result other than Success fails with its message, or with the status it had', () => {
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1', uid, answer({ uid, result: { status: 'Failure', message: 'cannot convert spec.x' } })), { message: 'cannot convert spec.x' });
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1', uid, answer({ uid, result: { status: 'Failure' } })), { message: "response.result.status was 'Failure', not 'Success'" });
  assert.throws(() => convertedObjectsOf('k8s.io', 'v1', uid, answer({ uid })), { message: "response.result.status was '', not 'Success'" });
});

test('the API domain names the review group', () => {
  assert.equal(conversionReview('orch.dev', 'v1', uid, 'x/v2', []).apiVersion, 'apiextensions.orch.dev/v1');
  assert.deepEqual(convertedObjectsOf('orch.dev', 'v1', uid, answer({ uid, result: { status: 'Success' } }, 'apiextensions.orch.dev/v1')), []);
});

test('a failed HTTP answer reads as client-go reads it', () => {
  assert.equal(unexpectedStatusMessage(403, Buffer.from(JSON.stringify({ kind: 'Status', message: 'forbidden by policy' }))), 'forbidden by policy');
  assert.equal(unexpectedStatusMessage(404, Buffer.from('nope')), 'the server could not find the requested resource');
  assert.equal(unexpectedStatusMessage(500, Buffer.from('boom\n')), 'an error on the server ("boom") has prevented the request from succeeding');
  assert.equal(unexpectedStatusMessage(418, Buffer.from('')), 'the server responded with the status code 418 but did not return more information');
});
