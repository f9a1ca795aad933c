// CertificateApproval, CertificateSigning and CertificateSubjectRestriction as kube-apiserver 1.28
// runs them (plugin/pkg/admission/certificates): the signer right by exact name, then by
// `<domain>/*`; kube's 403 messages; requests the plugins do not concern left alone.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { certificateApprovalPlugin } from '../../../../internal/admission/plugins/certificates/certificate-approval.ts';
import { certificateSigningPlugin } from '../../../../internal/admission/plugins/certificates/certificate-signing.ts';
import { certificateSubjectRestrictionPlugin } from '../../../../internal/admission/plugins/certificates/certificate-subject-restriction.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import type { Attributes } from '../../../../internal/authz/authorizer.ts';
import { attributes, rejectsWith, testDeps, user, type AttributeSpec } from '../plugins-b/helpers.ts';
import { b64, certificatePem, csrObject, requestPem } from '../../registry/certificates/csr-fixtures.ts';

let pem: string;
let masters: string;
before(() => {
  pem = requestPem('/CN=alice');
  masters = requestPem('/O=system:masters/CN=mallory');
});

const signer = 'example.com/signer';

function csrWrite(subresource: string, object: KObject, oldObject: KObject, extra: AttributeSpec = {}) {
  return attributes({
    operation: 'UPDATE', resource: { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' }, subresource,
    kind: { group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest' }, namespace: '', name: 'csr', object, oldObject, userInfo: user('bob'), ...extra,
  });
}

/** An authorizer allowing `verb` on exactly the signers named in `names`. */
function allowing(verb: string, ...names: string[]) {
  return (a: Attributes) => (a.verb === verb && a.resource === 'signers' && names.includes(a.name) ? { decision: 'allow' as const, reason: '' } : { decision: 'no-opinion' as const, reason: '' });
}

test('CertificateApproval asks for approve on the stored signer, by name then by domain wildcard', async () => {
  const deps = testDeps();
  const plugin = certificateApprovalPlugin(deps, undefined);
  deps.decide = allowing('approve', 'example.com/*');
  const claimed = csrObject(pem, { signerName: 'other.io/claimed' });
  await plugin.validate!(csrWrite('approval', claimed, csrObject(pem)));
  assert.deepEqual(deps.checks.map((a) => [a.verb, a.apiGroup, a.apiVersion, a.resource, a.name, a.user.username]), [
    ['approve', 'certificates.k8s.io', '*', 'signers', signer, 'bob'],
    ['approve', 'certificates.k8s.io', '*', 'signers', 'example.com/*', 'bob'],
  ]);
  deps.decide = allowing('approve', signer);
  deps.checks.length = 0;
  await plugin.validate!(csrWrite('approval', claimed, csrObject(pem)));
  assert.equal(deps.checks.length, 1, 'the exact name is enough');
});

test('CertificateApproval refuses without the right, with kube\'s message', async () => {
  const deps = testDeps();
  deps.decide = allowing('sign', signer);
  const plugin = certificateApprovalPlugin(deps, undefined);
  await rejectsWith(plugin.validate!(csrWrite('approval', csrObject(pem), csrObject(pem))), 403,
    'certificatesigningrequests.certificates.k8s.io "csr" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
  assert.equal(plugin.handles('CREATE'), false);
  deps.checks.length = 0;
  await plugin.validate!(csrWrite('status', csrObject(pem), csrObject(pem)));
  await plugin.validate!(csrWrite('', csrObject(pem), csrObject(pem)));
  assert.equal(deps.checks.length, 0, 'only /approval is checked');
});

test('CertificateSigning asks for sign only when status.certificate changes', async () => {
  const deps = testDeps();
  deps.decide = allowing('approve', signer);
  const plugin = certificateSigningPlugin(deps, undefined);
  const old = csrObject(pem);
  const failed = { ...old, status: { conditions: [{ type: 'Failed', status: 'True' }] } };
  await plugin.validate!(csrWrite('status', failed, old));
  assert.equal(deps.checks.length, 0);
  const issued = { ...old, status: { certificate: b64(certificatePem()) } };
  await rejectsWith(plugin.validate!(csrWrite('status', issued, old)), 403,
    'certificatesigningrequests.certificates.k8s.io "csr" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');
  deps.decide = allowing('sign', 'example.com/*');
  await plugin.validate!(csrWrite('status', issued, old));
  await plugin.validate!(csrWrite('approval', issued, old));
});

test('CertificateSubjectRestriction refuses system:masters for the kube-apiserver client signer only', async () => {
  const deps = testDeps();
  const plugin = certificateSubjectRestrictionPlugin(deps, undefined);
  const create = (object: KObject) => csrWrite('', object, object, { operation: 'CREATE', name: '', oldObject: undefined });
  await rejectsWith(plugin.validate!(create(csrObject(masters, { signerName: 'kubernetes.io/kube-apiserver-client' }, 'evil'))), 403,
    'certificatesigningrequests.certificates.k8s.io "evil" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
  await rejectsWith(plugin.validate!(create(csrObject('junk', { signerName: 'kubernetes.io/kube-apiserver-client' }, 'junk'))), 403,
    'certificatesigningrequests.certificates.k8s.io "junk" is forbidden: failed to parse CSR: PEM block type must be CERTIFICATE REQUEST');
  await plugin.validate!(create(csrObject(masters, { signerName: 'kubernetes.io/kube-apiserver-client-kubelet' })));
  await plugin.validate!(create(csrObject(pem, { signerName: 'kubernetes.io/kube-apiserver-client' })));
  assert.equal(plugin.handles('UPDATE'), false);
});
