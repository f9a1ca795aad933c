// Quota usage of services (pkg/quota/v1/evaluator/core/services.go): every service counts once;
// NodePort and LoadBalancer services count their ports as node ports (a load balancer that
// allocates none counts only the ports that name one); load balancers count once more.
import type { KObject } from '../registry/schema/declaration.ts';
import type { QuotaEvaluator } from './evaluator.ts';
import { count, intersection, type ResourceList } from './resource-list.ts';

const serviceResources = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

type Json = Record<string, unknown>;

function nodePortsOf(spec: Json, ports: readonly Json[]): number {
  if (spec.allocateLoadBalancerNodePorts === false) return ports.filter((p) => typeof p?.nodePort === 'number' && p.nodePort !== 0).length;
  return ports.length;
}

/** What one service uses. */
export function serviceUsage(service: KObject): ResourceList {
  const spec = (typeof service.spec === 'object' && service.spec !== null ? service.spec : {}) as Json;
  const ports = (Array.isArray(spec.ports) ? spec.ports : []) as Json[];
  const usage: ResourceList = new Map([
    ['count/services', count(1)],
    ['services', count(1)],
    ['services.loadbalancers', count(0)],
    ['services.nodeports', count(0)],
  ]);
  if (spec.type === 'NodePort') usage.set('services.nodeports', count(ports.length));
  if (spec.type === 'LoadBalancer') {
    usage.set('services.nodeports', count(nodePortsOf(spec, ports)));
    usage.set('services.loadbalancers', count(1));
  }
  return usage;
}

/** The evaluator of core/v1 services; updates count because a service may change type. */
export const serviceEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'services',
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: (names) => intersection(names, serviceResources),
  matchesScope: () => false,
  usage: serviceUsage,
  constraints: () => undefined,
};
