// kube-controller-manager's csrcleaner (cleaner.go): approved-and-issued, denied and failed requests
// go an hour after their condition, pending ones a day after creation, issued ones once their
// certificate expired; on the cleaner's own clock.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanupReason, createCsrCleanerController } from '../../../../internal/controllers/certificates/csr-cleaner-controller.ts';
import { signCertificateRequest } from '../../../../internal/certificates/signing/sign-request.ts';
import { loadSigningAuthority } from '../../../../internal/certificates/signing/signing-authority.ts';
import { parseCertificateRequest } from '../../../../internal/certificates/certificate-request.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { makeCa, nodeClientRequest } from '../../certificates/signing-fixture.ts';
import { eventually } from '../garbage-collector-fixture.ts';
import { csrFixture } from './csr-fixture.ts';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const created = Date.parse('2026-03-01T00:00:00Z');
const at = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const later = (ms: number): Date => new Date(created + ms);

function csr(conditions: readonly Record<string, unknown>[], certificatePem = ''): KObject {
  const status: Record<string, unknown> = { conditions };
  if (certificatePem !== '') status.certificate = Buffer.from(certificatePem).toString('base64');
  return { metadata: { name: 'r', creationTimestamp: at(created) }, spec: {}, status };
}

async function certificate(durationMs: number): Promise<string> {
  const authority = await loadSigningAuthority(await makeCa({ kind: 'ecdsa', keyFormat: 'pkcs8' }));
  return signCertificateRequest(authority, parseCertificateRequest(await nodeClientRequest('n1')), { usages: ['client auth'], durationMs, now: new Date(created) });
}

test('approved and issued: kept for an hour after approval', async () => {
  const issued = csr([{ type: 'Approved', status: 'True', lastUpdateTime: at(created) }], await certificate(365 * 24 * hourMs));
  assert.equal(cleanupReason(issued, later(59 * minuteMs)), undefined);
  assert.equal(cleanupReason(issued, later(61 * minuteMs)), 'approved and issued more than 1h ago');
  // Approved but not issued: not the hour's to take (nor the pending day's).
  assert.equal(cleanupReason(csr([{ type: 'Approved', status: 'True', lastUpdateTime: at(created) }]), later(48 * hourMs)), undefined);
});

test('denied and failed: kept for an hour after the condition', () => {
  for (const type of ['Denied', 'Failed']) {
    const done = csr([{ type, status: 'True', lastUpdateTime: at(created + hourMs) }]);
    assert.equal(cleanupReason(done, later(119 * minuteMs)), undefined, type);
    assert.equal(cleanupReason(done, later(121 * minuteMs)), `${type.toLowerCase()} more than 1h ago`);
  }
  // A condition without its time is never old (kube's isOlderThan on a zero time).
  assert.equal(cleanupReason(csr([{ type: 'Denied', status: 'True' }]), later(1000 * hourMs)), undefined);
});

test('pending (no condition): kept for a day after creation', () => {
  assert.equal(cleanupReason(csr([]), later(23 * hourMs)), undefined);
  assert.equal(cleanupReason(csr([]), later(25 * hourMs)), 'pending for more than 24h');
});

test('issued with an expired certificate: deleted once the certificate\'s notAfter passed', async () => {
  // Approved without a time (never "an hour old"), so only the expiry can take it.
  const shortLived = csr([{ type: 'Approved', status: 'True' }], await certificate(30 * minuteMs));
  assert.equal(cleanupReason(shortLived, later(29 * minuteMs)), undefined);
  assert.equal(cleanupReason(shortLived, later(31 * minuteMs)), 'its certificate has expired');
  assert.throws(() => cleanupReason(csr([{ type: 'Approved', status: 'True' }], 'garbage'), later(0)), /unable to parse certificate data/);
});

test('the controller deletes on its own clock', async (t) => {
  const f = await csrFixture(t);
  await f.create({ name: 'old-pending', requestPem: await nodeClientRequest('n1'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] });
  await f.create({ name: 'denied', requestPem: await nodeClientRequest('n2'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] });
  await f.decide('denied', 'Denied');
  let now = new Date(Date.now() + 2 * hourMs);
  f.run(createCsrCleanerController(f.deps, { intervalMs: 50, now: () => now }));
  await eventually('the denied request deleted', async () => (await f.find('denied')) === undefined);
  assert.notEqual(await f.find('old-pending'), undefined, 'a 2-hour-old pending request stays');
  now = new Date(Date.now() + 25 * hourMs);
  await eventually('the pending request deleted', async () => (await f.find('old-pending')) === undefined);
  assert.deepEqual(f.logs, []);
});
