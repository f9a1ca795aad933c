// A node may create only mirror pods of its static pods: annotated as mirrors, bound to itself,
// owned (as controller, without blocking deletion) by its own Node object, and referring to no
// other API object it could read through the pod.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { field, forbid, readOrRefuse, text } from './node-request.ts';
import type { NodeRequest } from './node-request.ts';
import { refersToClusterTrustBundles, refersToConfigMaps, refersToPersistentVolumeClaims, refersToSecrets } from './pod-references.ts';

/** The annotation marking a pod as the mirror of a static pod. */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

async function checkOwner(request: NodeRequest, pod: KObject): Promise<void> {
  const node = JSON.stringify(request.nodeName);
  const owners = Array.isArray(pod.metadata['ownerReferences']) ? (pod.metadata['ownerReferences'] as unknown[]) : [];
  if (owners.length > 1) throw forbid(request, `node ${node} can only create pods with a single owner reference set to itself`);
  const [owner] = owners;
  if (owner === undefined) throw forbid(request, `node ${node} can only create pods with an owner reference set to itself`);
  if (text(owner, 'apiVersion') !== 'v1' || text(owner, 'kind') !== 'Node' || text(owner, 'name') !== request.nodeName) {
    throw forbid(request, `node ${node} can only create pods with an owner reference set to itself`);
  }
  if (field(owner, 'controller') !== true) throw forbid(request, `node ${node} can only create pods with a controller owner reference set to itself`);
  if (field(owner, 'blockOwnerDeletion') === true) throw forbid(request, `node ${node} must not set blockOwnerDeletion on an owner reference`);
  const nodeObject = await readOrRefuse(request, 'nodes', undefined, request.nodeName);
  const uid = typeof nodeObject.metadata.uid === 'string' ? nodeObject.metadata.uid : '';
  if (text(owner, 'uid') !== uid) throw forbid(request, `node ${request.nodeName} UID mismatch: expected ${text(owner, 'uid')} got ${uid}`);
}

/** Refuses a pod create by a node unless it is an acceptable mirror pod. */
export async function admitMirrorPodCreate(request: NodeRequest): Promise<void> {
  const pod = request.attributes.object;
  if (pod === undefined) throw forbid(request, 'unexpected type <nil>');
  const node = JSON.stringify(request.nodeName);
  if (pod.metadata.annotations?.[mirrorPodAnnotation] === undefined) {
    throw forbid(request, `pod does not have ${JSON.stringify(mirrorPodAnnotation)} annotation, node ${node} can only create mirror pods`);
  }
  const spec = (field(pod, 'spec') ?? {}) as Record<string, unknown>;
  if (text(spec, 'nodeName') !== request.nodeName) throw forbid(request, `node ${node} can only create pods with spec.nodeName set to itself`);
  await checkOwner(request, pod);
  const references: [boolean, string][] = [
    [text(spec, 'serviceAccountName') !== '', 'a service account'],
    [refersToSecrets(spec), 'secrets'],
    [refersToConfigMaps(spec), 'configmaps'],
    [refersToClusterTrustBundles(spec), 'clustertrustbundles'],
    [refersToPersistentVolumeClaims(spec), 'persistentvolumeclaims'],
  ];
  const hit = references.find(([refers]) => refers);
  if (hit !== undefined) throw forbid(request, `node ${node} can not create pods that reference ${hit[1]}`);
}
