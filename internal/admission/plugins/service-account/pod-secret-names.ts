// Whether a pod references any Secret (kube's podutil.VisitPodSecretNames over all containers):
// mirror pods may not, since the kubelet that made them could read no Secret for them.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { fieldsOf, objectsOf, specOf, type Fields } from './pod-fields.ts';

// kube visits a reference when its field is present, whatever name it holds.

/** Volume sources that always name a Secret (by `secretName`). */
const secretNamingSources = ['azureFile', 'secret'];
/** Volume sources that name a Secret when the given reference field is set. */
const secretReferenceFields: readonly (readonly [source: string, field: string])[] = [
  ['cephfs', 'secretRef'],
  ['cinder', 'secretRef'],
  ['flexVolume', 'secretRef'],
  ['rbd', 'secretRef'],
  ['scaleIO', 'secretRef'],
  ['iscsi', 'secretRef'],
  ['storageos', 'secretRef'],
  ['csi', 'nodePublishSecretRef'],
];

function present(value: unknown): boolean {
  return fieldsOf(value) !== undefined;
}

function containerReferencesSecret(container: Fields): boolean {
  if (objectsOf(container.envFrom).some((from) => present(from.secretRef))) return true;
  return objectsOf(container.env).some((env) => present(fieldsOf(env.valueFrom)?.secretKeyRef));
}

function volumeReferencesSecret(volume: Fields): boolean {
  if (secretNamingSources.some((source) => present(volume[source]))) return true;
  if (secretReferenceFields.some(([source, field]) => present(fieldsOf(volume[source])?.[field]))) return true;
  return objectsOf(fieldsOf(volume.projected)?.sources).some((source) => present(source.secret));
}

/** Whether any field of the pod names a Secret. */
export function podReferencesSecrets(pod: KObject): boolean {
  const spec = specOf(pod);
  if (objectsOf(spec.imagePullSecrets).length > 0) return true;
  const containers = [...objectsOf(spec.initContainers), ...objectsOf(spec.containers), ...objectsOf(spec.ephemeralContainers)];
  return containers.some(containerReferencesSecret) || objectsOf(spec.volumes).some(volumeReferencesSecret);
}
