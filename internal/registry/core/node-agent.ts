// The sub-resources a node agent (kubelet) or the pods themselves would serve: pods/log, exec,
// attach, portforward and proxy, services/proxy, nodes/proxy. orch runs no kubelet and no pods,
// so nothing stands behind them. They are routed, listed in discovery and check their object
// as kube-apiserver does (a missing object is a 404, a pod without a node a 400), then answer a
// 503 ServiceUnavailable that says why. 503, not kube-apiserver's 500 for an unreachable
// kubelet: the request and its object are fine and nothing in the server failed; what is
// missing is a backend, which is what 503 says (kube-apiserver answers an unavailable aggregated
// API or a Service without endpoints the same way), and clients do not read it as a server bug.
import type { KObject, SubresourceDeclaration } from '../schema/declaration.ts';
import { badRequest, StatusError } from '../errors/status-error.ts';
import { field } from '../schema/printers.ts';
import type { GenericStore } from '../generic/store.ts';
import type { SubresourceCall, SubresourceStore } from '../generic/subresource-store.ts';

/** 503: no node agent serves `what` (`pods/log`) for the object `subject` (`pod "x"`), and `why`. */
export function noNodeAgent(what: string, subject: string, why: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', `no node agent serves ${what} for ${subject}: ${why}`);
}

/** What a proxy path names: `name`, `name:port` or `scheme:name:port` (scheme http, https or none). */
export interface ProxyTarget {
  readonly name: string;
  readonly port: string;
}

/**
 * The target of a proxy sub-resource's `{name}` segment, as utilnet.SplitSchemeNamePort reads it;
 * 400 `invalid <singular> request` when it is none (kube-apiserver's ResourceLocation).
 */
export function proxyTarget(id: string, singular: 'pod' | 'service' | 'node'): ProxyTarget {
  const parts = id.split(':');
  const [scheme, name, port] = parts.length === 3 ? parts : ['', parts[0] ?? '', parts[1] ?? ''];
  if (parts.length > 3 || name === '' || !['', 'http', 'https'].includes(scheme ?? '')) throw badRequest(`invalid ${singular} request ${JSON.stringify(id)}`);
  return { name: name ?? '', port: port ?? '' };
}

/** A Service's port number asked for by a proxy path must be one of its ports (upstream: 503 otherwise). */
function checkServicePort(service: KObject, port: string): void {
  if (!/^[+-]?\d{1,18}$/.test(port)) return;
  const ports = field(service, 'spec.ports');
  const number = Number(port);
  if (Array.isArray(ports) && ports.some((p) => (p as { port?: unknown } | null)?.port === number)) return;
  throw new StatusError(503, 'ServiceUnavailable', `no service port ${number} found for service ${JSON.stringify(service.metadata.name ?? '')}`);
}

/**
 * The proxy sub-resource of Services or Nodes (`services/proxy`, `nodes/proxy`): 400 for a path
 * naming no target, 404 when the object does not exist, else the 503 saying no node agent answers.
 */
export function proxyStore(self: GenericStore, singular: 'service' | 'node'): SubresourceStore {
  return {
    async connect(call: SubresourceCall) {
      const target = proxyTarget(call.name, singular);
      const object = await self.get(call.namespace, target.name);
      if (singular === 'service') checkServicePort(object, target.port);
      const why = singular === 'node' ? 'orch runs no kubelet on any node' : 'orch runs no pods, so no endpoint can answer';
      throw noNodeAgent(`${self.decl.plural}/proxy`, `${singular} "${target.name}"`, why);
    },
  };
}

/** The declaration of a proxy sub-resource (`services/proxy`, `nodes/proxy`), as discovery lists it. */
export function proxySubresource(kind: 'ServiceProxyOptions' | 'NodeProxyOptions'): SubresourceDeclaration {
  return { kind, verbs: ['create', 'delete', 'get', 'patch', 'update'], takesPath: true };
}
