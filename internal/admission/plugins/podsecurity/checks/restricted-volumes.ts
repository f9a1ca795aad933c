// Restricted: only volume types that go through the cluster's own objects or are ephemeral
// (configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret).
import { allowed, forbidden, type Check, type CheckResult } from './check.ts';
import { joinQuote, pluralize, sortedUnique } from './format.ts';
import { hostPathVolumesCheck } from './host-path-volumes.ts';
import { arrayOf, objectOf, stringOf, type JsonObject, type PodView } from './pod-view.ts';

const allowedSources = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

/** The refused sources, in the order kube tests them (the first present names the volume's type). */
const restrictedSources = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs',
  'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
];

function hasSource(volume: JsonObject, source: string): boolean {
  return objectOf(volume[source]) !== undefined;
}

/**
 * The restricted type a volume uses, or undefined when it is allowed. A volume naming no known
 * source is allowed: kube's decoding defaults it to emptyDir before admission sees it.
 */
function restrictedTypeOf(volume: JsonObject): string | undefined {
  if (allowedSources.some((s) => hasSource(volume, s))) return undefined;
  return restrictedSources.find((s) => hasSource(volume, s));
}

function restrictedVolumesV1Dot0({ spec }: PodView): CheckResult {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const volume of arrayOf(spec.volumes).map((v) => objectOf(v) ?? {})) {
    const type = restrictedTypeOf(volume);
    if (type === undefined) continue;
    badVolumes.push(stringOf(volume.name));
    badTypes.push(type);
  }
  if (badVolumes.length === 0) return allowed;
  const types = sortedUnique(badTypes);
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ` +
      `${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  );
}

/** The restrictedVolumes check, from v1.0; it supersedes hostPathVolumes at the restricted level. */
export const restrictedVolumesCheck: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minimumMinor: 0, checkPod: restrictedVolumesV1Dot0, overrides: [hostPathVolumesCheck.id] }],
};
