// The three write paths of CertificateSigningRequests as kube-apiserver 1.28's strategies make them
// (pkg/registry/certificates/certificates/strategy.go): create fills the requestor and clears the
// status; the object itself keeps spec and status; /status keeps the spec and the approval
// conditions; /approval changes only the conditions; both stamp the conditions' times.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceRegistry, storeFor } from '../../../../internal/registry/resource-registry.ts';
import type { GenericStore } from '../../../../internal/registry/generic/store.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { populateConditionTimestamps } from '../../../../internal/registry/certificates/csr-writes.ts';
import { FakeStorage } from '../../apiserver/fake-storage.ts';
import { b64, certificatePem, csrObject, requestPem } from './csr-fixtures.ts';

const user = { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
const write = { fieldManager: 'test' };
let pem: string;
let certificate: string;

before(() => {
  pem = requestPem('/CN=alice');
  certificate = b64(certificatePem());
});

function csrStore(): GenericStore {
  const served = new ResourceRegistry('k8s.io').find('certificates.k8s.io', 'v1', 'certificatesigningrequests');
  assert.ok(served, 'certificatesigningrequests are served by default');
  return storeFor(new FakeStorage(), served);
}

async function created(store: GenericStore, name = 'csr'): Promise<KObject> {
  return (await store.create(undefined, csrObject(pem, {}, name), { ...write, user })).object;
}

async function refusal(run: () => Promise<unknown>): Promise<{ code: number; causes: string[] }> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    const details = err.details as { causes?: readonly { field?: string; message?: string }[] } | undefined;
    return { code: err.code, causes: (details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) };
  }
  assert.fail('the write was accepted');
}

const condition = (type: string, extra: Record<string, unknown> = {}) => ({ type, status: 'True', reason: 'Test', message: type, ...extra });

test('create takes the requestor from the user and starts with an empty status', async () => {
  const store = csrStore();
  const body = csrObject(pem, { username: 'mallory', uid: 'x', groups: ['system:masters'] });
  body.status = { conditions: [condition('Approved')], certificate };
  const obj = (await store.create(undefined, body, { ...write, user })).object;
  assert.deepEqual(obj.spec, { request: b64(pem), signerName: 'example.com/signer', usages: ['client auth'], username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
  assert.deepEqual(obj.status, {});
});

test('validating admission sees the requestor the server filled in, not the one the body claims', async () => {
  let seen: unknown;
  const admission = { mutate: (_op: string, obj: KObject | undefined) => Promise.resolve(obj), validate: (_op: string, obj: KObject | undefined) => { seen = obj?.spec; return Promise.resolve(); } };
  await csrStore().create(undefined, csrObject(pem, { username: 'mallory', groups: ['system:masters'] }), { ...write, user, admission });
  assert.equal((seen as { username?: string }).username, 'alice');
  assert.deepEqual((seen as { groups?: string[] }).groups, ['devs', 'system:authenticated']);
});

test('a create of the server itself (no user) keeps the requestor as given', async () => {
  const obj = (await csrStore().create(undefined, csrObject(pem, { username: 'node:a' }), write)).object;
  assert.equal((obj.spec as { username?: string }).username, 'node:a');
});

test('a write of the object itself keeps spec and status, and changes metadata', async () => {
  const store = csrStore();
  const obj = await created(store);
  const approvedObj = (await store.update(undefined, 'csr', { ...obj, status: { conditions: [condition('Approved')] } }, { ...write, subresource: 'approval' })).object;
  const next = { ...approvedObj, metadata: { ...approvedObj.metadata, labels: { a: 'b' } }, spec: { ...(approvedObj.spec as object), signerName: 'example.com/other' }, status: {} };
  const updated = (await store.update(undefined, 'csr', next, write)).object;
  assert.deepEqual(updated.metadata.labels, { a: 'b' });
  assert.equal((updated.spec as { signerName: string }).signerName, 'example.com/signer');
  assert.deepEqual(updated.status, approvedObj.status);
});

test('/approval changes only the conditions and stamps them', async () => {
  const store = csrStore();
  const obj = await created(store);
  const body = { ...obj, spec: { ...(obj.spec as object), usages: ['server auth'] }, status: { conditions: [condition('Approved')], certificate } };
  const approvedObj = (await store.update(undefined, 'csr', body, { ...write, subresource: 'approval' })).object;
  assert.deepEqual((approvedObj.spec as { usages: string[] }).usages, ['client auth']);
  const status = approvedObj.status as { certificate?: string; conditions: Record<string, unknown>[] };
  assert.equal(status.certificate, undefined, 'the certificate is /status\'s');
  assert.equal(status.conditions.length, 1);
  assert.match(String(status.conditions[0]?.lastUpdateTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(status.conditions[0]?.lastTransitionTime, status.conditions[0]?.lastUpdateTime);
});

test('/status keeps the approval conditions and the spec, and sets the certificate once', async () => {
  const store = csrStore();
  const obj = await created(store);
  const approvedObj = (await store.update(undefined, 'csr', { ...obj, status: { conditions: [condition('Approved')] } }, { ...write, subresource: 'approval' })).object;
  const stored = (approvedObj.status as { conditions: unknown[] }).conditions[0];
  const body = { ...approvedObj, spec: {}, status: { conditions: [condition('Approved', { message: 'changed' }), condition('Failed')], certificate } };
  const issued = (await store.update(undefined, 'csr', body, { ...write, subresource: 'status' })).object;
  const status = issued.status as { certificate: string; conditions: Record<string, unknown>[] };
  assert.deepEqual(status.conditions[0], stored, 'the Approved condition is the stored one');
  assert.equal(status.conditions[1]?.type, 'Failed');
  assert.equal(status.certificate, certificate);
  assert.deepEqual(issued.spec, approvedObj.spec);
  const again = await refusal(() => store.update(undefined, 'csr', { ...issued, status: { ...status, certificate: b64(certificatePem('/CN=other')) } }, { ...write, subresource: 'status' }));
  assert.equal(again.code, 422);
  assert.deepEqual(again.causes, ['status.certificate: Forbidden: updates may not modify existing certificate content']);
});

test('/status may not add or remove approval conditions', async () => {
  const store = csrStore();
  const obj = await created(store);
  const added = await refusal(() => store.update(undefined, 'csr', { ...obj, status: { conditions: [condition('Approved')] } }, { ...write, subresource: 'status' }));
  assert.deepEqual(added.causes, ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);
  const approvedObj = (await store.update(undefined, 'csr', { ...obj, status: { conditions: [condition('Approved')] } }, { ...write, subresource: 'approval' })).object;
  const removed = await refusal(() => store.update(undefined, 'csr', { ...approvedObj, status: { conditions: [] } }, { ...write, subresource: 'status' }));
  assert.deepEqual(removed.causes, ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
});

test('/approval may not remove an approval, nor set the certificate, nor put Denied beside Approved', async () => {
  const store = csrStore();
  const obj = await created(store);
  const approvedObj = (await store.update(undefined, 'csr', { ...obj, status: { conditions: [condition('Approved')] } }, { ...write, subresource: 'approval' })).object;
  const removed = await refusal(() => store.update(undefined, 'csr', { ...approvedObj, status: { conditions: [] } }, { ...write, subresource: 'approval' }));
  assert.deepEqual(removed.causes, ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
  const both = await refusal(() => store.update(undefined, 'csr', { ...approvedObj, status: { conditions: [...(approvedObj.status as { conditions: unknown[] }).conditions, condition('Denied')] } }, { ...write, subresource: 'approval' }));
  assert.deepEqual(both.causes, ['status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']);
});

test('a status write of duplicate conditions is refused with the index of the second', async () => {
  const store = csrStore();
  const obj = await created(store);
  const duplicate = await refusal(() => store.update(undefined, 'csr', { ...obj, status: { conditions: [condition('Failed'), condition('Failed')] } }, { ...write, subresource: 'status' }));
  assert.deepEqual(duplicate.causes, ['status.conditions[1].type: Duplicate value: "Failed"']);
  assert.deepEqual((await store.get(undefined, 'csr')).status, {});
});

test('populateConditionTimestamps keeps a transition time of the same type and status, else now', () => {
  const old = { metadata: {}, status: { conditions: [{ type: 'Failed', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' }] } } as KObject;
  const obj = { metadata: {}, status: { conditions: [{ type: 'Failed', status: 'True' }, { type: 'Other', status: 'False', lastUpdateTime: '2021-01-01T00:00:00Z' }] } } as KObject;
  populateConditionTimestamps(obj, old, new Date('2026-11-27T10:00:00.500Z'));
  assert.deepEqual((obj.status as { conditions: unknown[] }).conditions, [
    { type: 'Failed', status: 'True', lastUpdateTime: '2026-11-27T10:00:00Z', lastTransitionTime: '2020-01-01T00:00:00Z' },
    { type: 'Other', status: 'False', lastUpdateTime: '2021-01-01T00:00:00Z', lastTransitionTime: '2026-11-27T10:00:00Z' },
  ]);
});
