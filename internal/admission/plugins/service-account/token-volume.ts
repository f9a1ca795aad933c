// The projected volume that gives every container its ServiceAccount's credentials: a bound token
// (refreshed by the kubelet), the cluster CA bundle and the namespace, mounted read-only at the
// path client libraries look in. Named `kube-api-access-<5 random>` as kube names it.
import { warnOnlyBoundTokenExpirationSeconds } from '../../../authn/serviceaccount/token-limits.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { fieldsOf, objectsOf, text, type Fields } from './pod-fields.ts';

/** Where the credentials are mounted in each container. */
export const defaultApiTokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
/** The volume's name prefix; a volume with it is taken to be the token volume already. */
export const serviceAccountVolumePrefix = 'kube-api-access-';
/** The ConfigMap the root-ca-cert-publisher keeps in every namespace, and its key. */
const rootCaConfigMap = 'kube-root-ca.crt';
const rootCaKey = 'ca.crt';
/** 0644, set explicitly as kube does so the stored pod shows it. */
const projectedDefaultMode = 0o644;

/** The volume's source (kube's TokenVolumeSource). */
export function tokenVolumeSource(): Fields {
  return {
    defaultMode: projectedDefaultMode,
    sources: [
      { serviceAccountToken: { expirationSeconds: warnOnlyBoundTokenExpirationSeconds, path: 'token' } },
      { configMap: { name: rootCaConfigMap, items: [{ key: rootCaKey, path: rootCaKey }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/** Adds the mount to each container without one at the mount path; whether any was added. */
function mountInto(containers: Fields[], volumeName: string): boolean {
  let added = false;
  for (const container of containers) {
    const mounts = objectsOf(container.volumeMounts);
    if (mounts.some((m) => text(m.mountPath) === defaultApiTokenMountPath)) continue;
    const list = Array.isArray(container.volumeMounts) ? container.volumeMounts : [];
    list.push({ name: volumeName, readOnly: true, mountPath: defaultApiTokenMountPath });
    container.volumeMounts = list;
    added = true;
  }
  return added;
}

/**
 * Mounts the token volume into every init container and container (a container with something
 * at the mount path already keeps it); adds the volume, named by `generateName`, unless the pod
 * has one with the prefix already.
 */
export function mountServiceAccountToken(pod: KObject, generateName: (prefix: string) => string): void {
  const spec = fieldsOf(pod.spec);
  if (spec === undefined) return;
  const existing = objectsOf(spec.volumes).find((v) => text(v.name).startsWith(serviceAccountVolumePrefix));
  const volumeName = existing === undefined ? generateName(serviceAccountVolumePrefix) : text(existing.name);
  const inInit = mountInto(objectsOf(spec.initContainers), volumeName);
  const inMain = mountInto(objectsOf(spec.containers), volumeName);
  if (existing !== undefined || !(inInit || inMain)) return;
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  volumes.push({ name: volumeName, projected: tokenVolumeSource() });
  spec.volumes = volumes;
}
