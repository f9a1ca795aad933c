// kube-controller-manager's csrapproving (sarapprove.go): node client requests are approved after a
// SubjectAccessReview of certificatesigningrequests/selfnodeclient (renewal) or /nodeclient
// (bootstrap) for the requester; the Approved condition goes through /approval.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Attributes, Authorizer } from '../../../../internal/authz/authorizer.ts';
import { approvedRequest, autoApprovedReason, createCsrApprovingController } from '../../../../internal/controllers/certificates/csr-approving-controller.ts';
import { csrConditions } from '../../../../internal/controllers/certificates/csr-objects.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { makeRequest, nodeClientRequest } from '../../certificates/signing-fixture.ts';
import { eventually, settle } from '../garbage-collector-fixture.ts';
import { csrFixture, nodeUser } from './csr-fixture.ts';

const kubeletClient = 'kubernetes.io/kube-apiserver-client-kubelet';
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const bootstrapper = { username: 'system:bootstrap:abcdef', uid: 'u-1', groups: ['system:bootstrappers', 'system:authenticated'], extra: { 'x-scope': ['a'] } };

/** An authorizer allowing `create` of the listed subresources of certificatesigningrequests, recording what it was asked. */
function authorizerAllowing(...subresources: string[]): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return {
    asked,
    authorize(attributes) {
      asked.push(attributes);
      const allowed = attributes.resource === 'certificatesigningrequests' && attributes.verb === 'create' && subresources.includes(attributes.subresource);
      return Promise.resolve({ decision: allowed ? 'allow' : 'no-opinion', reason: '' });
    },
  } as Authorizer & { asked: Attributes[] };
}

async function csr(spec: Record<string, unknown>, conditions: readonly Record<string, unknown>[] = [], requestPem?: string): Promise<KObject> {
  const pem = requestPem ?? (await nodeClientRequest('n1'));
  return { metadata: { name: 'r' }, spec: { request: Buffer.from(pem).toString('base64'), signerName: kubeletClient, usages: clientUsages, ...spec }, status: { conditions } };
}
const context = (authorizer: Authorizer | undefined) => ({ authorizer, group: 'certificates.k8s.io' });

test('a bootstrap request is approved when the requester may create nodeclient: kube\'s review, reason and message', async () => {
  const authorizer = authorizerAllowing('nodeclient');
  const answer = await approvedRequest(await csr({ username: bootstrapper.username, uid: bootstrapper.uid, groups: bootstrapper.groups, extra: bootstrapper.extra }), context(authorizer));
  assert.ok(typeof answer === 'object');
  assert.deepEqual(csrConditions(answer), [{ type: 'Approved', status: 'True', reason: autoApprovedReason, message: 'Auto approving kubelet client certificate after SubjectAccessReview.' }]);
  // Not a renewal (the CN is not the requester): only nodeclient was asked, as the requester.
  assert.equal(authorizer.asked.length, 1);
  const asked = authorizer.asked[0]!;
  assert.deepEqual(asked.user, bootstrapper);
  assert.deepEqual([asked.verb, asked.apiGroup, asked.resource, asked.subresource, asked.apiVersion], ['create', 'certificates.k8s.io', 'certificatesigningrequests', 'nodeclient', '*']);
});

test('a renewal (CN is the requester) asks selfnodeclient first, then nodeclient', async () => {
  const self = authorizerAllowing('selfnodeclient');
  const renewal = await csr({ username: 'system:node:n1', groups: ['system:nodes'] });
  const answer = await approvedRequest(renewal, context(self));
  assert.ok(typeof answer === 'object');
  assert.equal(csrConditions(answer)[0]?.message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
  const onlyBootstrap = authorizerAllowing('nodeclient');
  const fallback = await approvedRequest(renewal, context(onlyBootstrap));
  assert.ok(typeof fallback === 'object');
  assert.equal(csrConditions(fallback)[0]?.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');
  assert.deepEqual(onlyBootstrap.asked.map((a) => a.subresource), ['selfnodeclient', 'nodeclient']);
});

test('a recognized request no review allows is left pending, to be asked again', async () => {
  const none = authorizerAllowing();
  assert.equal(await approvedRequest(await csr({ username: 'system:node:n1' }), context(none)), 'retry');
  assert.deepEqual(none.asked.map((a) => a.subresource), ['selfnodeclient', 'nodeclient']);
});

test('only node client requests are the approver\'s; decided or issued ones are left alone', async () => {
  const all = authorizerAllowing('nodeclient', 'selfnodeclient');
  const cases: KObject[] = [
    await csr({ signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] }, [], await makeRequest({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'] })),
    await csr({ signerName: 'kubernetes.io/kube-apiserver-client' }),
    await csr({ usages: ['digital signature', 'client auth', 'server auth'] }),
    await csr({}, [], await makeRequest({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'] })),
    await csr({}, [], await makeRequest({ commonName: 'alice', organizations: ['system:nodes'] })),
    await csr({}, [{ type: 'Denied', status: 'True' }]),
    await csr({}, [{ type: 'Approved', status: 'True' }]),
    { ...(await csr({})), status: { certificate: Buffer.from('x').toString('base64') } },
  ];
  for (const item of cases) assert.equal(await approvedRequest(item, context(all)), undefined);
  assert.deepEqual(all.asked, []);
});

test('the controller approves through /approval as the authorizer allows, and leaves the others pending', async (t) => {
  const authorizer = authorizerAllowing('nodeclient');
  const f = await csrFixture(t, { authorizer });
  await f.create({ name: 'allowed', requestPem: await nodeClientRequest('n2'), signerName: kubeletClient, usages: clientUsages, user: bootstrapper });
  const other = { ...nodeUser('n3'), username: 'someone' };
  f.run(createCsrApprovingController(f.deps, { resyncIntervalMs: 100 }));
  await eventually('approved', async () => csrConditions((await f.find('allowed'))!).some((c) => c.type === 'Approved'));
  const condition = csrConditions((await f.find('allowed'))!)[0];
  assert.equal(condition?.reason, autoApprovedReason);
  assert.ok(typeof condition?.lastUpdateTime === 'string', 'the approval sub-resource stamps the times');
  // Denied by the authorizer: stays pending.
  const refusing = await csrFixture(t, { authorizer: authorizerAllowing() });
  await refusing.create({ name: 'refused', requestPem: await nodeClientRequest('n3'), signerName: kubeletClient, usages: clientUsages, user: other });
  refusing.run(createCsrApprovingController(refusing.deps, { resyncIntervalMs: 100 }));
  await settle(400);
  assert.deepEqual(csrConditions((await refusing.find('refused'))!), []);
  assert.deepEqual([...f.logs, ...refusing.logs], []);
});
