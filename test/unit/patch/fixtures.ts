// Schema fixtures with the merge markers Kubernetes declares for Deployment, Pod and ConfigMap
// (only the fields the patch tests touch).
import type { Schema } from '../../../internal/patch/schema.ts';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const intOrString: Schema = { 'x-kubernetes-int-or-string': true };
const stringMap: Schema = { type: 'object', additionalProperties: str };

/** ObjectMeta: labels/annotations granular maps, finalizers a set (patchStrategy merge). */
export const objectMeta: Schema = {
  type: 'object',
  properties: {
    name: str,
    namespace: str,
    uid: str,
    resourceVersion: str,
    labels: stringMap,
    annotations: stringMap,
    finalizers: { type: 'array', items: str, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
    managedFields: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'atomic' },
  },
};

const containerPort: Schema = {
  type: 'object',
  properties: { name: str, containerPort: int, protocol: { type: 'string', default: 'TCP' } },
};

const envVar: Schema = { type: 'object', properties: { name: str, value: str } };

/** Container: ports keyed by (containerPort, protocol), env merged by name, args/command atomic. */
export const container: Schema = {
  type: 'object',
  properties: {
    name: str,
    image: str,
    args: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' },
    command: { type: 'array', items: str },
    ports: {
      type: 'array',
      items: containerPort,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'containerPort',
    },
    env: { type: 'array', items: envVar, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
    resources: { type: 'object', properties: { limits: stringMap, requests: stringMap } },
  },
};

const volume: Schema = {
  type: 'object',
  properties: {
    name: str,
    emptyDir: { type: 'object', properties: { medium: str } },
    hostPath: { type: 'object', properties: { path: str } },
    configMap: { type: 'object', properties: { name: str } },
  },
};

/** PodSpec: containers as list-type map keyed by name; volumes merge,retainKeys; nodeSelector atomic map. */
export const podSpec: Schema = {
  type: 'object',
  properties: {
    containers: {
      type: 'array',
      items: container,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    },
    volumes: {
      type: 'array',
      items: volume,
      'x-kubernetes-patch-strategy': 'merge,retainKeys',
      'x-kubernetes-patch-merge-key': 'name',
    },
    nodeSelector: { ...stringMap, 'x-kubernetes-map-type': 'atomic' },
    tolerations: { type: 'array', items: { type: 'object', properties: { key: str } }, 'x-kubernetes-list-type': 'atomic' },
    restartPolicy: str,
  },
};

/** Deployment (apps/v1): selector atomic struct, strategy with retainKeys. */
export const deploymentSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: objectMeta,
    spec: {
      type: 'object',
      properties: {
        replicas: int,
        paused: { type: 'boolean' },
        selector: {
          type: 'object',
          properties: { matchLabels: stringMap },
          'x-kubernetes-map-type': 'atomic',
        },
        strategy: {
          type: 'object',
          'x-kubernetes-patch-strategy': 'retainKeys',
          properties: { type: str, rollingUpdate: { type: 'object', properties: { maxSurge: intOrString, maxUnavailable: intOrString } } },
        },
        template: { type: 'object', properties: { metadata: objectMeta, spec: podSpec } },
      },
    },
    status: { type: 'object', properties: { replicas: int } },
  },
};

/** Pod (v1). */
export const podSchema: Schema = {
  type: 'object',
  properties: { apiVersion: str, kind: str, metadata: objectMeta, spec: podSpec },
};

/** ConfigMap (v1): data a granular map of strings. */
export const configMapSchema: Schema = {
  type: 'object',
  properties: { apiVersion: str, kind: str, metadata: objectMeta, data: stringMap, immutable: { type: 'boolean' } },
};

/** A Deployment applied by `kubectl apply --server-side` in Kubernetes' own docs. */
export function nginxDeployment(overrides: { replicas?: number; image?: string } = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default' },
    spec: {
      replicas: overrides.replicas ?? 3,
      template: { spec: { containers: [{ name: 'nginx', image: overrides.image ?? 'nginx:1.25' }] } },
    },
  };
}
