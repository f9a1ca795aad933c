// Each baseline check allows what the standard allows and refuses the rest with kube's exact
// reason and detail (the cases follow pod-security-admission's check_*_test.go tables).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertForbidden, runCheck } from './check-harness.ts';
import { appArmorProfileCheck } from '../../../../internal/admission/plugins/podsecurity/checks/apparmor-profile.ts';
import { capabilitiesBaselineCheck } from '../../../../internal/admission/plugins/podsecurity/checks/capabilities-baseline.ts';
import { hostNamespacesCheck } from '../../../../internal/admission/plugins/podsecurity/checks/host-namespaces.ts';
import { hostPathVolumesCheck } from '../../../../internal/admission/plugins/podsecurity/checks/host-path-volumes.ts';
import { hostPortsCheck } from '../../../../internal/admission/plugins/podsecurity/checks/host-ports.ts';
import { privilegedCheck } from '../../../../internal/admission/plugins/podsecurity/checks/privileged.ts';
import { procMountCheck } from '../../../../internal/admission/plugins/podsecurity/checks/proc-mount.ts';
import { seLinuxOptionsCheck } from '../../../../internal/admission/plugins/podsecurity/checks/selinux-options.ts';
import { seccompProfileBaselineCheck } from '../../../../internal/admission/plugins/podsecurity/checks/seccomp-profile-baseline.ts';
import { sysctlsCheck } from '../../../../internal/admission/plugins/podsecurity/checks/sysctls.ts';
import { windowsHostProcessCheck } from '../../../../internal/admission/plugins/podsecurity/checks/windows-host-process.ts';

const containers = (...items: Record<string, unknown>[]): Record<string, unknown> => ({ containers: items });

test('hostNamespaces refuses hostNetwork, hostPID and hostIPC, listing them sorted', () => {
  assert.ok(runCheck(hostNamespacesCheck, { hostNetwork: false }).allowed);
  assertForbidden(runCheck(hostNamespacesCheck, { hostNetwork: true }), 'host namespaces', 'hostNetwork');
  assertForbidden(runCheck(hostNamespacesCheck, { hostNetwork: true, hostPID: true, hostIPC: true }), 'host namespaces', 'hostIPC, hostNetwork, hostPID');
});

test('privileged refuses privileged containers of every kind, init and ephemeral included', () => {
  assert.ok(runCheck(privilegedCheck, containers({ name: 'a', securityContext: { privileged: false } }, { name: 'b' })).allowed);
  const spec = {
    initContainers: [{ name: 'i', securityContext: { privileged: true } }],
    containers: [{ name: 'a', securityContext: { privileged: true } }, { name: 'b', securityContext: { privileged: false } }],
    ephemeralContainers: [{ name: 'e', securityContext: { privileged: true } }],
  };
  assertForbidden(runCheck(privilegedCheck, spec), 'privileged', 'containers "i", "a", "e" must not set securityContext.privileged=true');
  assertForbidden(runCheck(privilegedCheck, containers({ name: 'a', securityContext: { privileged: true } })), 'privileged', 'container "a" must not set securityContext.privileged=true');
});

test('capabilities_baseline allows the default set and refuses any other added capability', () => {
  assert.ok(runCheck(capabilitiesBaselineCheck, containers({ name: 'a', securityContext: { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE', 'SYS_CHROOT'], drop: ['ALL'] } } })).allowed);
  const spec = containers(
    { name: 'a', securityContext: { capabilities: { add: ['NET_RAW', 'CHOWN'] } } },
    { name: 'b', securityContext: { capabilities: { add: ['SYS_ADMIN', 'NET_RAW'] } } },
    { name: 'c', securityContext: { capabilities: {} } },
  );
  assertForbidden(runCheck(capabilitiesBaselineCheck, spec), 'non-default capabilities', 'containers "a", "b" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add');
});

test('hostPathVolumes refuses hostPath volumes by name', () => {
  assert.ok(runCheck(hostPathVolumesCheck, { volumes: [{ name: 'a', emptyDir: {} }] }).allowed);
  assertForbidden(runCheck(hostPathVolumesCheck, { volumes: [{ name: 'a', hostPath: { path: '/' } }] }), 'hostPath volumes', 'volume "a"');
  assertForbidden(
    runCheck(hostPathVolumesCheck, { volumes: [{ name: 'a', hostPath: {} }, { name: 'b', secret: {} }, { name: 'c', hostPath: {} }] }),
    'hostPath volumes',
    'volumes "a", "c"',
  );
});

test('hostPorts refuses non-zero host ports, sorting the ports as text', () => {
  assert.ok(runCheck(hostPortsCheck, containers({ name: 'a', ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 0 }] })).allowed);
  assertForbidden(runCheck(hostPortsCheck, containers({ name: 'a', ports: [{ hostPort: 8080 }] })), 'hostPort', 'container "a" uses hostPort 8080');
  const spec = containers({ name: 'a', ports: [{ hostPort: 80 }, { hostPort: 10000 }] }, { name: 'b', ports: [{ hostPort: 80 }] });
  assertForbidden(runCheck(hostPortsCheck, spec), 'hostPort', 'containers "a", "b" use hostPorts 10000, 80');
});

test('appArmorProfile allows runtime/default, localhost/* and empty, refusing others sorted', () => {
  const prefix = 'container.apparmor.security.beta.kubernetes.io/';
  assert.ok(runCheck(appArmorProfileCheck, {}, { [`${prefix}a`]: 'runtime/default', [`${prefix}b`]: 'localhost/foo', [`${prefix}c`]: '', other: 'unconfined' }).allowed);
  assertForbidden(runCheck(appArmorProfileCheck, {}, { [`${prefix}a`]: 'unconfined' }), 'forbidden AppArmor profile', `${prefix}a="unconfined"`);
  assertForbidden(
    runCheck(appArmorProfileCheck, {}, { [`${prefix}b`]: 'unconfined', [`${prefix}a`]: 'foo' }),
    'forbidden AppArmor profiles',
    `${prefix}a="foo", ${prefix}b="unconfined"`,
  );
});

test('seLinuxOptions allows the container types and refuses other types, users and roles', () => {
  assert.ok(runCheck(seLinuxOptionsCheck, { securityContext: { seLinuxOptions: { type: 'container_t', level: 's0:c1' } }, ...containers({ name: 'a', securityContext: { seLinuxOptions: { type: 'container_kvm_t' } } }) }).allowed);
  assertForbidden(
    runCheck(seLinuxOptionsCheck, { securityContext: { seLinuxOptions: { type: 'foo', user: 'u', role: 'r' } } }),
    'seLinuxOptions',
    'pod set forbidden securityContext.seLinuxOptions: type "foo"; user may not be set; role may not be set',
  );
  assertForbidden(runCheck(seLinuxOptionsCheck, { securityContext: { seLinuxOptions: { user: 'bad' } } }), 'seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: user may not be set');
  const spec = {
    securityContext: { seLinuxOptions: { type: 'bar' } },
    ...containers({ name: 'e', securityContext: { seLinuxOptions: { type: 'bar' } } }, { name: 'f', securityContext: { seLinuxOptions: { role: 'x' } } }),
  };
  assertForbidden(runCheck(seLinuxOptionsCheck, spec), 'seLinuxOptions', 'pod and containers "e", "f" set forbidden securityContext.seLinuxOptions: type "bar"; role may not be set');
  // container_engine_t came with the v1.31 standards, after 1.28.
  assert.equal(runCheck(seLinuxOptionsCheck, containers({ name: 'a', securityContext: { seLinuxOptions: { type: 'container_engine_t' } } })).allowed, false);
});

test('procMount allows Default and refuses Unmasked', () => {
  assert.ok(runCheck(procMountCheck, containers({ name: 'a', securityContext: { procMount: 'Default' } }), {}).allowed);
  assertForbidden(
    runCheck(procMountCheck, containers({ name: 'a', securityContext: { procMount: 'Unmasked' } }, { name: 'b', securityContext: { procMount: 'Unmasked' } })),
    'procMount',
    'containers "a", "b" must not set securityContext.procMount to "Unmasked"',
  );
});

test('seccompProfile_baseline refuses Unconfined fields from v1.19 and unconfined annotations before', () => {
  assert.ok(runCheck(seccompProfileBaselineCheck, containers({ name: 'a' })).allowed);
  assert.ok(runCheck(seccompProfileBaselineCheck, { securityContext: { seccompProfile: { type: 'Localhost' } }, ...containers({ name: 'a', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }) }).allowed);
  const spec = { securityContext: { seccompProfile: { type: 'Unconfined' } }, ...containers({ name: 'a', securityContext: { seccompProfile: { type: 'Unconfined' } } }, { name: 'b' }) };
  assertForbidden(runCheck(seccompProfileBaselineCheck, spec), 'seccompProfile', 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"');

  const annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/a': 'localhost/x' };
  assert.ok(runCheck(seccompProfileBaselineCheck, spec, annotations, 18).allowed === false);
  assertForbidden(runCheck(seccompProfileBaselineCheck, containers({ name: 'a' }), annotations, 18), 'seccompProfile', 'forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined"');
  assert.ok(runCheck(seccompProfileBaselineCheck, containers({ name: 'a' }), { 'seccomp.security.alpha.kubernetes.io/pod': 'docker/default' }, 18).allowed);
  // From v1.19 the annotations are no longer what is checked.
  assert.ok(runCheck(seccompProfileBaselineCheck, containers({ name: 'a' }), annotations, 19).allowed);
});

test('sysctls allows the safe list of the version and refuses the rest in the pod order', () => {
  const sysctls = (...names: string[]) => ({ securityContext: { sysctls: names.map((name) => ({ name, value: '1' })) } });
  assert.ok(runCheck(sysctlsCheck, sysctls('kernel.shm_rmid_forced', 'net.ipv4.ip_unprivileged_port_start')).allowed);
  assertForbidden(runCheck(sysctlsCheck, sysctls('net.ipv4.tcp_keepalive_time', 'a', 'kernel.shm_rmid_forced')), 'forbidden sysctls', 'net.ipv4.tcp_keepalive_time, a');
  // net.ipv4.ip_local_reserved_ports is safe from v1.27 only.
  assert.ok(runCheck(sysctlsCheck, sysctls('net.ipv4.ip_local_reserved_ports'), {}, 27).allowed);
  assertForbidden(runCheck(sysctlsCheck, sysctls('net.ipv4.ip_local_reserved_ports'), {}, 26), 'forbidden sysctls', 'net.ipv4.ip_local_reserved_ports');
});

test('windowsHostProcess refuses hostProcess at pod and container level', () => {
  assert.ok(runCheck(windowsHostProcessCheck, { securityContext: { windowsOptions: { hostProcess: false } }, ...containers({ name: 'a' }) }).allowed);
  const spec = { securityContext: { windowsOptions: { hostProcess: true } }, ...containers({ name: 'a', securityContext: { windowsOptions: { hostProcess: true } } }, { name: 'b', securityContext: { windowsOptions: { hostProcess: true } } }) };
  assertForbidden(runCheck(windowsHostProcessCheck, spec), 'hostProcess', 'pod and containers "a", "b" must not set securityContext.windowsOptions.hostProcess=true');
});
