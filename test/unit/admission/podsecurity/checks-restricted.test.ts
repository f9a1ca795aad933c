// Each restricted check allows what the standard allows and refuses the rest with kube's exact
// reason and detail, Windows pods exempt where 1.28 exempts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertForbidden, runCheck } from './check-harness.ts';
import { allowPrivilegeEscalationCheck } from '../../../../internal/admission/plugins/podsecurity/checks/allow-privilege-escalation.ts';
import { capabilitiesRestrictedCheck } from '../../../../internal/admission/plugins/podsecurity/checks/capabilities-restricted.ts';
import { restrictedVolumesCheck } from '../../../../internal/admission/plugins/podsecurity/checks/restricted-volumes.ts';
import { runAsNonRootCheck } from '../../../../internal/admission/plugins/podsecurity/checks/run-as-non-root.ts';
import { runAsUserCheck } from '../../../../internal/admission/plugins/podsecurity/checks/run-as-user.ts';
import { seccompProfileRestrictedCheck } from '../../../../internal/admission/plugins/podsecurity/checks/seccomp-profile-restricted.ts';
import { revisionAt } from '../../../../internal/admission/plugins/podsecurity/checks/registry.ts';

const containers = (...items: Record<string, unknown>[]): Record<string, unknown> => ({ containers: items });
const windows = { os: { name: 'windows' } };

test('allowPrivilegeEscalation requires false on every container, Windows pods exempt from v1.25', () => {
  assert.ok(runCheck(allowPrivilegeEscalationCheck, containers({ name: 'a', securityContext: { allowPrivilegeEscalation: false } })).allowed);
  const spec = containers(
    { name: 'a' },
    { name: 'b', securityContext: {} },
    { name: 'c', securityContext: { allowPrivilegeEscalation: true } },
    { name: 'd', securityContext: { allowPrivilegeEscalation: false } },
  );
  assertForbidden(runCheck(allowPrivilegeEscalationCheck, spec), 'allowPrivilegeEscalation != false', 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false');
  assert.ok(runCheck(allowPrivilegeEscalationCheck, { ...windows, ...containers({ name: 'a' }) }).allowed);
  assert.equal(runCheck(allowPrivilegeEscalationCheck, { ...windows, ...containers({ name: 'a' }) }, {}, 24).allowed, false);
  assert.equal(revisionAt(allowPrivilegeEscalationCheck, 7), undefined, 'the field exists from v1.8');
});

test('capabilities_restricted requires drop ALL and adds only NET_BIND_SERVICE, Windows exempt from v1.25', () => {
  assert.ok(runCheck(capabilitiesRestrictedCheck, containers({ name: 'a', securityContext: { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } })).allowed);
  assertForbidden(runCheck(capabilitiesRestrictedCheck, containers({ name: 'a' })), 'unrestricted capabilities', 'container "a" must set securityContext.capabilities.drop=["ALL"]');
  const spec = containers(
    { name: 'a', securityContext: { capabilities: { drop: ['NET_RAW'] } } },
    { name: 'b', securityContext: { capabilities: { drop: ['ALL'], add: ['CHOWN', 'NET_BIND_SERVICE', 'AUDIT_WRITE'] } } },
    { name: 'c', securityContext: { capabilities: { add: ['SYS_ADMIN'] } } },
  );
  assertForbidden(
    runCheck(capabilitiesRestrictedCheck, spec),
    'unrestricted capabilities',
    'containers "a", "c" must set securityContext.capabilities.drop=["ALL"]; containers "b", "c" must not include "AUDIT_WRITE", "CHOWN", "SYS_ADMIN" in securityContext.capabilities.add',
  );
  assert.ok(runCheck(capabilitiesRestrictedCheck, { ...windows, ...containers({ name: 'a' }) }).allowed);
  assert.equal(runCheck(capabilitiesRestrictedCheck, { ...windows, ...containers({ name: 'a' }) }, {}, 24).allowed, false);
  assert.equal(revisionAt(capabilitiesRestrictedCheck, 21), undefined, 'introduced in v1.22');
});

test('restrictedVolumes allows the core ephemeral and claim types and names each refused type', () => {
  const allowedVolumes = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'].map((t) => ({ name: t, [t]: {} }));
  assert.ok(runCheck(restrictedVolumesCheck, { volumes: [...allowedVolumes, { name: 'defaulted' }] }).allowed);
  assertForbidden(runCheck(restrictedVolumesCheck, { volumes: [{ name: 'a', hostPath: {} }] }), 'restricted volume types', 'volume "a" uses restricted volume type "hostPath"');
  const spec = { volumes: [{ name: 'a', nfs: {} }, { name: 'b', emptyDir: {} }, { name: 'c', hostPath: {} }, { name: 'd', nfs: {} }, { name: 'e', cephfs: {} }] };
  assertForbidden(runCheck(restrictedVolumesCheck, spec), 'restricted volume types', 'volumes "a", "c", "d", "e" use restricted volume types "cephfs", "hostPath", "nfs"');
});

test('runAsNonRoot needs true on the pod or each container, and false nowhere', () => {
  assert.ok(runCheck(runAsNonRootCheck, { securityContext: { runAsNonRoot: true }, ...containers({ name: 'a' }) }).allowed);
  assert.ok(runCheck(runAsNonRootCheck, containers({ name: 'a', securityContext: { runAsNonRoot: true } })).allowed);
  assertForbidden(runCheck(runAsNonRootCheck, containers({ name: 'a' }, { name: 'b', securityContext: {} }, { name: 'c', securityContext: { runAsNonRoot: true } })), 'runAsNonRoot != true', 'pod or containers "a", "b" must set securityContext.runAsNonRoot=true');
  assertForbidden(runCheck(runAsNonRootCheck, { securityContext: { runAsNonRoot: false }, ...containers({ name: 'a', securityContext: { runAsNonRoot: true } }) }), 'runAsNonRoot != true', 'pod must not set securityContext.runAsNonRoot=false');
  assertForbidden(
    runCheck(runAsNonRootCheck, { securityContext: { runAsNonRoot: true }, ...containers({ name: 'c', securityContext: { runAsNonRoot: false } }, { name: 'd', securityContext: { runAsNonRoot: false } }, { name: 'e' }) }),
    'runAsNonRoot != true',
    'containers "c", "d" must not set securityContext.runAsNonRoot=false',
  );
  assertForbidden(runCheck(runAsNonRootCheck, { securityContext: { runAsNonRoot: false }, ...containers({ name: 'a', securityContext: { runAsNonRoot: false } }) }), 'runAsNonRoot != true', 'pod and container "a" must not set securityContext.runAsNonRoot=false');
});

test('runAsUser refuses an explicit 0 from v1.23', () => {
  assert.ok(runCheck(runAsUserCheck, { securityContext: { runAsUser: 1000 }, ...containers({ name: 'a' }, { name: 'b', securityContext: { runAsUser: 1 } }) }).allowed);
  assertForbidden(
    runCheck(runAsUserCheck, { securityContext: { runAsUser: 0 }, ...containers({ name: 'a', securityContext: { runAsUser: 0 } }, { name: 'b', securityContext: { runAsUser: 0 } }) }),
    'runAsUser=0',
    'pod and containers "a", "b" must not set runAsUser=0',
  );
  assert.equal(revisionAt(runAsUserCheck, 22), undefined, 'introduced in v1.23');
});

test('seccompProfile_restricted requires RuntimeDefault or Localhost, inherited or own, Windows exempt from v1.25', () => {
  assert.ok(runCheck(seccompProfileRestrictedCheck, { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, ...containers({ name: 'a' }) }).allowed);
  assert.ok(runCheck(seccompProfileRestrictedCheck, containers({ name: 'a', securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } } })).allowed);
  assertForbidden(runCheck(seccompProfileRestrictedCheck, containers({ name: 'a' })), 'seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"');
  assertForbidden(runCheck(seccompProfileRestrictedCheck, { securityContext: { seccompProfile: { type: 'Unconfined' } }, ...containers({ name: 'a' }) }), 'seccompProfile', 'pod must not set securityContext.seccompProfile.type to "Unconfined"');
  assertForbidden(
    runCheck(seccompProfileRestrictedCheck, containers({ name: 'a' }, { name: 'c', securityContext: { seccompProfile: { type: 'Unconfined' } } }, { name: 'd', securityContext: { seccompProfile: { type: 'Unconfined' } } })),
    'seccompProfile',
    'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"',
  );
  assert.ok(runCheck(seccompProfileRestrictedCheck, { ...windows, ...containers({ name: 'a' }) }).allowed);
  assertForbidden(runCheck(seccompProfileRestrictedCheck, { os: { name: 'linux' }, ...containers({ name: 'a' }) }), 'seccompProfile', 'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"');
  assert.equal(runCheck(seccompProfileRestrictedCheck, { ...windows, ...containers({ name: 'a' }) }, {}, 24).allowed, false);
});
