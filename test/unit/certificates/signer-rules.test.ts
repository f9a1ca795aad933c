// What each built-in signer agrees to sign, with kube's refusal messages (signer.go, helpers.go),
// and the duration a request gets.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCertificateRequest, type CertificateRequest } from '../../../internal/certificates/certificate-request.ts';
import { kubeApiServerClientRule, kubeletClientRule, kubeletServingRule, legacyUnknownRule, signerRule, signingDurationMs } from '../../../internal/certificates/signing/signer-rules.ts';
import { makeRequest, type RequestParts } from './signing-fixture.ts';

const request = async (parts: RequestParts): Promise<CertificateRequest> => parseCertificateRequest(await makeRequest(parts));
const node = { commonName: 'system:node:n1', organizations: ['system:nodes'] };

test('kubelet client: O=system:nodes only, CN system:node:*, no alternative names, client usages with or without key encipherment', async () => {
  assert.equal(kubeletClientRule(await request(node), ['digital signature', 'key encipherment', 'client auth']), undefined);
  assert.equal(kubeletClientRule(await request(node), ['client auth', 'digital signature']), undefined);
  const refusals: [RequestParts, readonly string[], string][] = [
    [{ ...node, organizations: ['system:nodes', 'other'] }, ['digital signature', 'client auth'], 'subject organization is not system:nodes'],
    [{ ...node, dnsNames: ['n1'] }, ['digital signature', 'client auth'], 'DNS subjectAltNames are not allowed'],
    [{ ...node, emailAddresses: ['n1@example.com'] }, ['digital signature', 'client auth'], 'Email subjectAltNames are not allowed'],
    [{ ...node, ipAddresses: ['10.0.0.1'] }, ['digital signature', 'client auth'], 'IP subjectAltNames are not allowed'],
    [{ ...node, uris: ['spiffe://n1'] }, ['digital signature', 'client auth'], 'URI subjectAltNames are not allowed'],
    [{ ...node, commonName: 'n1' }, ['digital signature', 'client auth'], 'subject common name does not begin with system:node:'],
    [node, ['digital signature', 'client auth', 'server auth'], 'usages did not match [client auth digital signature key encipherment]'],
  ];
  for (const [parts, usages, message] of refusals) assert.equal(kubeletClientRule(await request(parts), usages), message);
});

test('kubelet serving: O=system:nodes only, a DNS or IP name, no email or URI, serving usages, CN system:node:*', async () => {
  const serving = { ...node, dnsNames: ['n1.example'] };
  assert.equal(kubeletServingRule(await request(serving), ['digital signature', 'key encipherment', 'server auth']), undefined);
  assert.equal(kubeletServingRule(await request({ ...node, ipAddresses: ['10.0.0.1'] }), ['digital signature', 'server auth']), undefined);
  const refusals: [RequestParts, readonly string[], string][] = [
    [{ ...serving, organizations: [] }, ['digital signature', 'server auth'], 'subject organization is not system:nodes'],
    [node, ['digital signature', 'server auth'], 'DNS or IP subjectAltName is required'],
    [{ ...serving, emailAddresses: ['n1@example.com'] }, ['digital signature', 'server auth'], 'Email subjectAltNames are not allowed'],
    [{ ...serving, uris: ['spiffe://n1'] }, ['digital signature', 'server auth'], 'URI subjectAltNames are not allowed'],
    [serving, ['digital signature', 'server auth', 'client auth'], 'usages did not match [digital signature key encipherment server auth]'],
    [{ ...serving, commonName: 'n1' }, ['digital signature', 'server auth'], 'subject common name does not begin with system:node:'],
  ];
  for (const [parts, usages, message] of refusals) assert.equal(kubeletServingRule(await request(parts), usages), message);
});

test('kube-apiserver client: client auth required; digital signature and key encipherment allowed; nothing else', async () => {
  const alice = await request({ commonName: 'alice', organizations: ['dev'], dnsNames: ['any.example'] });
  assert.equal(kubeApiServerClientRule(alice, ['client auth']), undefined);
  assert.equal(kubeApiServerClientRule(alice, ['digital signature', 'key encipherment', 'client auth']), undefined);
  assert.equal(kubeApiServerClientRule(alice, ['client auth', 'server auth']), 'invalid usage for client certificate: server auth');
  assert.equal(kubeApiServerClientRule(alice, ['digital signature']), 'missing required usage for client certificate: client auth');
});

test('legacy-unknown checks nothing; other signer names have no rule', async () => {
  assert.equal(legacyUnknownRule(await request({ commonName: 'x' }), ['cert sign']), undefined);
  assert.equal(signerRule('kubernetes.io/legacy-unknown'), legacyUnknownRule);
  assert.equal(signerRule('example.com/my-signer'), undefined);
  assert.equal(signerRule('kubernetes.io/kubelet-serving'), kubeletServingRule);
});

test('the duration is the signer\'s, or spec.expirationSeconds when shorter, never under 10 minutes', () => {
  const dayMs = 86_400_000;
  assert.equal(signingDurationMs(365 * dayMs, undefined), 365 * dayMs);
  assert.equal(signingDurationMs(dayMs, 2 * 86_400), dayMs);
  assert.equal(signingDurationMs(dayMs, 3600), 3_600_000);
  assert.equal(signingDurationMs(dayMs, 600), 600_000);
  assert.equal(signingDurationMs(dayMs, 60), 600_000);
});
