import { internalError } from '../../errors/status-error.ts';
import { invalidShown, type FieldError } from '../../schema/field-errors.ts';
import { nodePortKey, nodePortSpace, type AllocationTxn } from './allocation-txn.ts';
import { portRangeText, type PortRange } from './ip-range.ts';
import { needsHealthCheck, needsNodePort, nodePortsOf, portsOf, shouldAllocateNodePorts, type ServiceSpec } from './spec.ts';

/** A refused node port: the field error that names it (thrown by the caller as a 422). */
export class NodePortRefused extends Error {
  constructor(readonly fieldError: FieldError) {
    super(fieldError.message);
  }
}

/** Why `port` cannot be had, or undefined once it is claimed (portallocator's Allocate errors). */
async function claimPort(txn: AllocationTxn, range: PortRange, port: number): Promise<string | undefined> {
  if (port < range.base || port >= range.base + range.size) return `provided port is not in the valid range. The range of valid ports is ${portRangeText(range)}`;
  return (await txn.claim(nodePortKey(port))) ? undefined : 'provided port is already allocated';
}

async function claimNextPort(txn: AllocationTxn, range: PortRange, what: string): Promise<number> {
  const offset = await txn.claimNext(nodePortSpace(range));
  if (offset === undefined) throw internalError(`failed to allocate ${what}: range is full`);
  return range.base + offset;
}

async function claimRequested(txn: AllocationTxn, range: PortRange, port: number, index: number): Promise<void> {
  const refused = await claimPort(txn, range, port);
  if (refused !== undefined) throw new NodePortRefused(invalidShown(`spec.ports[${index}].nodePort`, String(port), refused));
}

/**
 * Node ports of a new NodePort or LoadBalancer Service (initNodePorts, alloc.go): a requested
 * one is claimed (in range and free, else a 422 on that port), others get a free one, unless a
 * LoadBalancer opts out. Ports with the same number (e.g. 53/TCP and 53/UDP) share one node port.
 */
export async function allocateNodePortsOnCreate(txn: AllocationTxn, spec: ServiceSpec, range: PortRange): Promise<void> {
  if (!needsNodePort(spec)) return;
  const ports = portsOf(spec);
  const byServicePort = new Map<unknown, number>();
  for (const [i, p] of ports.entries()) {
    if (!p.nodePort && !shouldAllocateNodePorts(spec)) continue;
    const shared = byServicePort.get(p.port) ?? 0;
    if (shared === 0) {
      const requested = ports.find((q) => q.port === p.port && q.nodePort)?.nodePort ?? 0;
      if (requested !== 0) await claimRequested(txn, range, requested, i);
      p.nodePort = requested !== 0 ? requested : await claimNextPort(txn, range, 'a nodePort');
      byServicePort.set(p.port, p.nodePort);
    } else if (p.nodePort !== shared) {
      if (!p.nodePort) p.nodePort = shared;
      else await claimRequested(txn, range, p.nodePort, i);
    }
  }
}

/**
 * Node ports of an updated Service (txnUpdateNodePorts, alloc.go): leaving NodePort or
 * LoadBalancer drops them all; otherwise new requested ports are claimed, ports without one
 * get one, and stored ones no port keeps are dropped (released once the update is applied).
 */
export async function allocateNodePortsOnUpdate(txn: AllocationTxn, next: ServiceSpec, old: ServiceSpec, range: PortRange): Promise<void> {
  const before = nodePortsOf(old);
  if (needsNodePort(old) && (next.type === 'ExternalName' || next.type === 'ClusterIP')) for (const port of before) txn.drop(nodePortKey(port));
  if (!needsNodePort(next)) return;
  const claimedNow = new Set<number>();
  for (const [i, p] of portsOf(next).entries()) {
    if (!p.nodePort && !shouldAllocateNodePorts(next)) continue;
    if (!p.nodePort) p.nodePort = await claimNextPort(txn, range, 'a nodePort');
    else if (!before.includes(p.nodePort) && !claimedNow.has(p.nodePort)) {
      await claimRequested(txn, range, p.nodePort, i);
      claimedNow.add(p.nodePort);
    }
  }
  const after = nodePortsOf(next);
  for (const port of before) if (!after.includes(port)) txn.drop(nodePortKey(port));
}

async function allocateHealthCheckPort(txn: AllocationTxn, spec: ServiceSpec, range: PortRange): Promise<void> {
  const requested = spec.healthCheckNodePort ?? 0;
  if (requested === 0) {
    spec.healthCheckNodePort = await claimNextPort(txn, range, 'a HealthCheck NodePort 0');
    return;
  }
  const refused = await claimPort(txn, range, requested);
  if (refused !== undefined) throw internalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${refused}`);
}

/** The health check node port of a LoadBalancer with externalTrafficPolicy Local, on create (allocHealthCheckNodePort, alloc.go). */
export async function allocateHealthCheckOnCreate(txn: AllocationTxn, spec: ServiceSpec, range: PortRange): Promise<void> {
  if (needsHealthCheck(spec)) await allocateHealthCheckPort(txn, spec, range);
}

/** The health check node port on update: claimed when it becomes needed, dropped when no longer (updateHealthCheckNodePort, alloc.go). */
export async function allocateHealthCheckOnUpdate(txn: AllocationTxn, next: ServiceSpec, old: ServiceSpec, range: PortRange): Promise<void> {
  const needed = needsHealthCheck(old);
  const needs = needsHealthCheck(next);
  if (!needed && needs) await allocateHealthCheckPort(txn, next, range);
  else if (needed && !needs && old.healthCheckNodePort) txn.drop(nodePortKey(old.healthCheckNodePort));
}
