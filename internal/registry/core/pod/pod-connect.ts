// pods/log, exec, attach, portforward and proxy (see ../node-agent.ts for why they answer 503):
// the checks kube-apiserver 1.28 makes before it would reach the kubelet or the pod
// (pkg/registry/core/pod/strategy.go LogLocation, streamLocation, PortForwardLocation and
// ResourceLocation), with its 400 messages, then the 503.
import { isIP } from 'node:net';
import type { KObject } from '../../schema/declaration.ts';
import { badRequest } from '../../errors/status-error.ts';
import type { GenericStore } from '../../generic/store.ts';
import type { SubresourceCall, SubresourceStore } from '../../generic/subresource-store.ts';
import { field, text } from '../../schema/printers.ts';
import { noNodeAgent, proxyTarget } from '../node-agent.ts';

/** The names of the pod's init, regular and ephemeral containers, in that order (VisitContainers). */
function containerNames(pod: KObject): string[] {
  return ['spec.initContainers', 'spec.containers', 'spec.ephemeralContainers'].flatMap((path) => {
    const list = field(pod, path);
    return Array.isArray(list) ? list.map((c) => String((c as { name?: unknown } | null)?.name ?? '')) : [];
  });
}

/** validateContainer: the `container` asked for must be the pod's; it may be left out when the pod has one container. */
function checkContainer(pod: KObject, container: string): void {
  const name = pod.metadata.name ?? '';
  if (container === '') {
    const regular = field(pod, 'spec.containers');
    const count = Array.isArray(regular) ? regular.length : 0;
    if (count === 1) return;
    if (count === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`);
  }
  if (!containerNames(pod).includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
}

function checkHost(pod: KObject): string {
  const node = text(pod, 'spec.nodeName');
  if (node === '') throw badRequest(`pod ${pod.metadata.name ?? ''} does not have a host assigned`);
  return node;
}

/** Whether the pod has an IP a proxy could reach (upstream: a global unicast address). */
function hasReachableIp(pod: KObject): boolean {
  const ip = text(pod, 'status.podIP');
  return isIP(ip) !== 0 && !/^(0\.|127\.|169\.254\.|22[4-9]\.|2[3-5]\d\.|::1?$|fe80:|ff)/i.test(ip);
}

/** The store of one of the pod's connecting sub-resources (`log`, `exec`, `attach`, `portforward`, `proxy`). */
export function podConnectStore(pods: GenericStore, subresource: 'log' | 'exec' | 'attach' | 'portforward' | 'proxy'): SubresourceStore {
  return {
    async connect(call: SubresourceCall) {
      // pods/proxy names its pod as `name`, `name:port` or `scheme:name:port`.
      const pod = await pods.get(call.namespace, subresource === 'proxy' ? proxyTarget(call.name, 'pod').name : call.name);
      const what = `pods/${subresource}`;
      const subject = `pod "${pod.metadata.name ?? ''}"`;
      if (subresource === 'proxy') {
        if (!hasReachableIp(pod)) throw badRequest('address not allowed');
        throw noNodeAgent(what, subject, `orch runs no pods, so nothing listens at ${text(pod, 'status.podIP')}`);
      }
      if (subresource !== 'portforward') checkContainer(pod, call.query.get('container') ?? '');
      const node = checkHost(pod);
      throw noNodeAgent(what, subject, `orch runs no kubelet, so node "${node}" cannot be reached`);
    },
  };
}
