// A pod spec's volumes as ValidateVolumes (pkg/apis/core/validation, 1.28) checks their names and
// sources: each name a unique DNS label, each volume exactly one source. A second source is
// named in the order validateVolumeSource looks at them, as kube-apiserver names it.
import { duplicate, forbidden, invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Label } from '../schema/name-validation.ts';

type Json = Record<string, unknown>;

/** VolumeSource's members in validateVolumeSource's order. */
const volumeSources = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flocker',
  'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'downwardAPI', 'fc', 'flexVolume', 'configMap', 'azureFile', 'vsphereVolume',
  'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'projected', 'scaleIO', 'storageos', 'csi', 'ephemeral',
] as const;

function validateSource(volume: Json, at: string): FieldError[] {
  // A source sent as null is Go's nil: no source.
  const given = volumeSources.filter((s) => volume[s] !== undefined && volume[s] !== null);
  if (given.length === 0) return [required(at, 'must specify a volume type')];
  return given.slice(1).map((s) => forbidden(`${at}.${s}`, 'may not specify more than 1 volume type'));
}

/** The names and sources of the volumes at `path` (`spec.volumes`). */
export function validateVolumes(volumes: unknown, path: string): FieldError[] {
  const names = new Set<string>();
  const errors: FieldError[] = [];
  (Array.isArray(volumes) ? volumes : []).forEach((v, i) => {
    const volume = typeof v === 'object' && v !== null ? (v as Json) : {};
    const at = `${path}[${i}]`;
    const name = typeof volume.name === 'string' ? volume.name : '';
    const found = validateSource(volume, at);
    if (name === '') found.push(required(`${at}.name`));
    else found.push(...dns1123Label(name).map((p) => invalidValue(`${at}.name`, name, p)));
    if (names.has(name)) found.push(duplicate(`${at}.name`, name));
    // ValidateVolumes remembers a name only when its volume is valid.
    if (found.length === 0) names.add(name);
    errors.push(...found);
  });
  return errors;
}
