// kube-controller-manager's serviceaccount controller (pkg/controller/serviceaccount): the
// `default` ServiceAccount in every namespace, created when the namespace appears and again when
// it is deleted, never in a namespace being deleted. An existing one is left as it is.
import type { Controller, ControllerDeps } from '../controller.ts';
import { perNamespaceObjectController } from './per-namespace-object.ts';

/** The controller's name, as kube-controller-manager calls it. */
export const serviceAccountControllerName = 'serviceaccount';

/** The ServiceAccount every namespace gets. */
export const defaultServiceAccountName = 'default';

/** Tuning (tests shorten the resync). */
export interface ServiceAccountControllerOptions {
  readonly resyncIntervalMs?: number;
}

/** The serviceaccount controller. */
export function createServiceAccountController(deps: ControllerDeps, options: ServiceAccountControllerOptions = {}): Controller {
  return perNamespaceObjectController(deps, {
    controllerName: serviceAccountControllerName,
    plural: 'serviceaccounts',
    objectName: defaultServiceAccountName,
    desired: () => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: defaultServiceAccountName } }),
    ...(options.resyncIntervalMs === undefined ? {} : { resyncIntervalMs: options.resyncIntervalMs }),
  });
}
