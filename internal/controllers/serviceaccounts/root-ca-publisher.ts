// kube-controller-manager's root-ca-cert-publisher (pkg/controller/certificates/rootcacertpublisher):
// ConfigMap `kube-root-ca.crt` in every namespace, whose `ca.crt` is the bundle that verifies the
// API server's serving certificate, so in-cluster clients can trust it. Recreated when deleted; its
// data (every key) and its description annotation are put back when edited away, other fields kept.
import { isDeepStrictEqual } from 'node:util';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { perNamespaceObjectController } from './per-namespace-object.ts';

/** The controller's name, as kube-controller-manager calls it. */
export const rootCaPublisherName = 'root-ca-cert-publisher';

/** The ConfigMap's name in every namespace. */
export const rootCaConfigMapName = 'kube-root-ca.crt';
/** Its one data key: the PEM bundle. */
export const rootCaKey = 'ca.crt';
/** The annotation kube writes on it... */
export const descriptionAnnotation = 'kubernetes.io/description';
/** ...and its text, word for word (clients and tests compare it). */
export const rootCaDescription =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** What the publisher publishes, and its tuning. */
export interface RootCaPublisherOptions {
  /** PEM of the CA bundle that verifies the API server (the cluster CA certificate). */
  readonly rootCaBundle: string;
  readonly resyncIntervalMs?: number;
}

/** The ConfigMap with the bundle and the annotation restored, or undefined when both are as published. */
export function repairedRootCaConfigMap(current: KObject, rootCaBundle: string): KObject | undefined {
  const data = { [rootCaKey]: rootCaBundle };
  // As kube: any description will do, but the data must be exactly the bundle.
  if (isDeepStrictEqual(current.data ?? {}, data) && (current.metadata.annotations?.[descriptionAnnotation] ?? '') !== '') return undefined;
  const annotations = { ...(current.metadata.annotations ?? {}), [descriptionAnnotation]: rootCaDescription };
  return { ...current, metadata: { ...current.metadata, annotations }, data };
}

/** The root-ca-cert-publisher; an empty bundle is a wiring bug. */
export function createRootCaPublisher(deps: ControllerDeps, options: RootCaPublisherOptions): Controller {
  if (options.rootCaBundle.trim() === '') throw new Error('assert: root-ca-cert-publisher needs a CA bundle');
  const { rootCaBundle } = options;
  return perNamespaceObjectController(deps, {
    controllerName: rootCaPublisherName,
    plural: 'configmaps',
    objectName: rootCaConfigMapName,
    desired: () => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: rootCaConfigMapName, annotations: { [descriptionAnnotation]: rootCaDescription } },
      data: { [rootCaKey]: rootCaBundle },
    }),
    repaired: (current) => repairedRootCaConfigMap(current, rootCaBundle),
    ...(options.resyncIntervalMs === undefined ? {} : { resyncIntervalMs: options.resyncIntervalMs }),
  });
}
