import type { Storage } from '../../../storage/storage.ts';
import { internalError, invalid } from '../../errors/status-error.ts';
import type { KObject } from '../../schema/declaration.ts';
import { invalidShown, toCauses, type FieldError } from '../../schema/field-errors.ts';
import type { FinishWrite, WriteHooks } from '../../generic/write-hooks.ts';
import { AllocationKeys } from './allocator.ts';
import { AllocationTxn, ipKey, ipSpace, nodePortKey, ownerOf } from './allocation-txn.ts';
import { goStrings, initIpFamilies } from './ip-families.ts';
import { parseIp, formatIp } from './ip-range.ts';
import { rangeOf, type ServiceNetwork } from './network.ts';
import { allocateHealthCheckOnCreate, allocateHealthCheckOnUpdate, allocateNodePortsOnCreate, allocateNodePortsOnUpdate, NodePortRefused } from './node-ports.ts';
import { clusterIpNone, clusterIpsOf, ipFamiliesOf, needsClusterIp, nodePortsOf, sameClusterIps, sameIpFamilies, specOf, type ServiceSpec } from './spec.ts';

/** What the Service hooks need: the store holding the allocation keys and the cluster's ranges. */
export interface ServiceAllocationDeps {
  readonly storage: Storage;
  readonly network: ServiceNetwork;
  readonly log: (message: string, err?: unknown) => void;
}

/** A refused cluster IP, thrown as a 422 naming spec.clusterIPs. */
class ClusterIpRefused extends Error {
  constructor(readonly fieldError: FieldError) {
    super(fieldError.message);
  }
}

/**
 * Claims the address at `ips[index]` of `family` ("" picks a free one) and returns it. A
 * requested address must be in the family's range and free (allocIPs, alloc.go: the 422
 * names spec.clusterIPs with the whole list); a full range is a 500.
 */
async function claimIp(txn: AllocationTxn, network: ServiceNetwork, family: string, ips: readonly string[], index: number): Promise<string> {
  const range = rangeOf(network, family);
  if (range === undefined) throw new Error(`assert: family ${family} was checked against the cluster's ranges`);
  const ip = ips[index] ?? '';
  if (ip === '') {
    const offset = await txn.claimNext(ipSpace(range));
    if (offset === undefined) throw internalError('failed to allocate a serviceIP: range is full');
    return range.addressAt(offset);
  }
  const parsed = parseIp(ip);
  const key = ipKey(ip);
  if (parsed === undefined || key === undefined || range.offsetOf(parsed) === undefined) {
    const shown = parsed === undefined ? ip : formatIp(parsed);
    throw new ClusterIpRefused(invalidShown('spec.clusterIPs', goStrings(ips), `failed to allocate IP ${ip}: the provided IP (${shown}) is not in the valid range. The range of valid IPs is ${range.cidr}`));
  }
  if (!(await txn.claim(key))) throw new ClusterIpRefused(invalidShown('spec.clusterIPs', goStrings(ips), `failed to allocate IP ${ip}: provided IP is already allocated`));
  return ip;
}

/** Cluster IPs of a Service that needs them (allocClusterIPs, alloc.go): one per family, requested or picked. */
async function allocateClusterIps(txn: AllocationTxn, spec: ServiceSpec, network: ServiceNetwork): Promise<void> {
  if (!needsClusterIp(spec) || clusterIpsOf(spec)[0] === clusterIpNone) return;
  const ips = [...clusterIpsOf(spec)];
  const families = ipFamiliesOf(spec);
  while (ips.length < families.length) ips.push('');
  spec.clusterIPs = ips;
  for (const [i, family] of families.entries()) ips[i] = await claimIp(txn, network, family, [...ips], i);
  spec.clusterIPs = ips;
  if (ips[0] !== undefined) spec.clusterIP = ips[0];
}

function dropIps(txn: AllocationTxn, ips: readonly string[]): void {
  for (const ip of ips) {
    const key = ipKey(ip);
    if (key !== undefined) txn.drop(key);
  }
}

/**
 * Cluster IPs of an updated Service (updateClusterIPs, alloc.go): from ExternalName, all are
 * claimed; to ExternalName, all are dropped; a second family added claims its address, a second
 * family removed drops its address. Headless Services and unchanged PreferDualStack ones keep theirs.
 */
async function updateClusterIps(txn: AllocationTxn, next: ServiceSpec, old: ServiceSpec, network: ServiceNetwork): Promise<void> {
  const preferDualStackAsIs = next.type === old.type && next.ipFamilyPolicy === 'PreferDualStack' && old.ipFamilyPolicy === 'PreferDualStack' && sameClusterIps(old, next) && sameIpFamilies(old, next);
  if (preferDualStackAsIs) return;
  if (!needsClusterIp(old) && needsClusterIp(next)) return allocateClusterIps(txn, next, network);
  if (clusterIpsOf(old)[0] === clusterIpNone) return;
  if (needsClusterIp(old) && !needsClusterIp(next)) return dropIps(txn, clusterIpsOf(old));
  const oldFamilies = ipFamiliesOf(old).length;
  const newFamilies = ipFamiliesOf(next);
  if (oldFamilies === 1 && newFamilies.length === 2) {
    const ips = [...clusterIpsOf(next)];
    if (ips.length < 2) ips.push('');
    next.clusterIPs = ips;
    ips[1] = await claimIp(txn, network, newFamilies[1] ?? '', [...ips], 1);
    next.clusterIPs = ips;
  } else if (oldFamilies === 2 && newFamilies.length === 1) dropIps(txn, clusterIpsOf(old).slice(1));
}

/** Runs `steps` in a new transaction; on any failure releases what they claimed and throws the matching API error. */
async function inTransaction(svc: KObject, txn: AllocationTxn, steps: () => Promise<void>): Promise<FinishWrite> {
  try {
    await steps();
  } catch (err) {
    await txn.finish('refused');
    if (err instanceof ClusterIpRefused || err instanceof NodePortRefused) throw invalid('Service', '', svc.metadata.name ?? '', toCauses([err.fieldError]));
    throw err;
  }
  return txn.finish;
}

function refuseInvalid(svc: KObject, errors: readonly FieldError[]): void {
  if (errors.length > 0) throw invalid('Service', '', svc.metadata.name ?? '', toCauses(errors));
}

/**
 * The Service store hooks (kube-apiserver's service REST beginCreate, beginUpdate and
 * afterDelete): IP families are filled in, cluster IPs and node ports claimed before the
 * Service is written and released if the write is refused; what an update drops is released
 * after it is applied, and everything a deleted Service held after it is gone.
 */
export function serviceWriteHooks(deps: ServiceAllocationDeps): WriteHooks {
  const keys = new AllocationKeys(deps.storage);
  const { network } = deps;
  return {
    async beginCreate(svc, dryRun) {
      const spec = specOf(svc);
      refuseInvalid(svc, initIpFamilies(spec, undefined, network));
      const txn = new AllocationTxn(keys, ownerOf(svc), dryRun, deps.log);
      return inTransaction(svc, txn, async () => {
        await allocateClusterIps(txn, spec, network);
        await allocateNodePortsOnCreate(txn, spec, network.nodePorts);
        await allocateHealthCheckOnCreate(txn, spec, network.nodePorts);
      });
    },
    async beginUpdate(svc, old, dryRun) {
      const spec = specOf(svc);
      const oldSpec = specOf(structuredClone(old));
      refuseInvalid(svc, initIpFamilies(spec, oldSpec, network));
      const txn = new AllocationTxn(keys, ownerOf(old), dryRun, deps.log);
      return inTransaction(svc, txn, async () => {
        await updateClusterIps(txn, spec, oldSpec, network);
        await allocateNodePortsOnUpdate(txn, spec, oldSpec, network.nodePorts);
        await allocateHealthCheckOnUpdate(txn, spec, oldSpec, network.nodePorts);
      });
    },
    async afterDelete(svc) {
      const spec = specOf(structuredClone(svc));
      const txn = new AllocationTxn(keys, ownerOf(svc), false, deps.log);
      dropIps(txn, clusterIpsOf(spec).filter((ip) => ip !== clusterIpNone));
      for (const port of nodePortsOf(spec)) txn.drop(nodePortKey(port));
      if (spec.healthCheckNodePort) txn.drop(nodePortKey(spec.healthCheckNodePort));
      await txn.finish('applied');
    },
  };
}
