// What a mirror pod may not refer to: a node creating a pod must not reach, through it, objects
// it is not entitled to (secrets, config maps, cluster trust bundles, persistent volume claims).
// The walks follow kube's VisitPodSecretNames and VisitPodConfigmapNames over every container.

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map((v) => record(v) ?? {}) : [];
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function allContainers(spec: Json): Json[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((name) => list(spec[name]));
}

function envRefers(spec: Json, keyRef: string, fromRef: string): boolean {
  return allContainers(spec).some(
    (c) => list(c['env']).some((e) => isSet(record(e['valueFrom'])?.[keyRef])) || list(c['envFrom']).some((e) => isSet(e[fromRef])),
  );
}

/** Volume sources whose secret is named in a `secretRef` field. */
const secretRefSources = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

function volumeRefersToSecret(volume: Json): boolean {
  if (isSet(volume['secret']) || isSet(volume['azureFile'])) return true;
  if (secretRefSources.some((name) => isSet(record(volume[name])?.['secretRef']))) return true;
  if (isSet(record(volume['csi'])?.['nodePublishSecretRef'])) return true;
  return list(record(volume['projected'])?.['sources']).some((source) => isSet(source['secret']));
}

/** Whether the pod spec names any secret (pull secrets, env, volumes). */
export function refersToSecrets(spec: Json): boolean {
  if (list(spec['imagePullSecrets']).length > 0) return true;
  if (envRefers(spec, 'secretKeyRef', 'secretRef')) return true;
  return list(spec['volumes']).some(volumeRefersToSecret);
}

/** Whether the pod spec names any config map (env, volumes). */
export function refersToConfigMaps(spec: Json): boolean {
  if (envRefers(spec, 'configMapKeyRef', 'configMapRef')) return true;
  return list(spec['volumes']).some((v) => isSet(v['configMap']) || list(record(v['projected'])?.['sources']).some((s) => isSet(s['configMap'])));
}

/** Whether a projected volume of the pod names a cluster trust bundle. */
export function refersToClusterTrustBundles(spec: Json): boolean {
  return list(spec['volumes']).some((v) => list(record(v['projected'])?.['sources']).some((s) => isSet(s['clusterTrustBundle'])));
}

/** Whether the pod mounts a persistent volume claim. */
export function refersToPersistentVolumeClaims(spec: Json): boolean {
  return list(spec['volumes']).some((v) => isSet(v['persistentVolumeClaim']));
}
