import type { Controller, ControllerDeps } from './controller.ts';
import { createClusterRoleAggregationController } from './clusterrole-aggregation.ts';
import { createDisruptionController } from './disruption/disruption-controller.ts';
import { createGarbageCollector } from './garbage-collector/garbage-collector.ts';
import { createNamespaceController } from './namespace-controller.ts';
import { createServiceAllocationRepair } from './service-allocation-repair.ts';
import { createServiceAccountController } from './serviceaccounts/default-service-account.ts';
import { createRootCaPublisher } from './serviceaccounts/root-ca-publisher.ts';

/** What some controllers publish, given by the replica. */
export interface ControllerInputs {
  /**
   * PEM of the CA that signs the API servers' serving certificates (the cluster CA): published as
   * ConfigMap kube-root-ca.crt in every namespace. Absent: the root-ca-cert-publisher does not run.
   */
  readonly rootCaBundle?: string;
}

/** Every controller a replica runs while it leads: the one list to add a controller to. */
export function createControllers(deps: ControllerDeps, inputs: ControllerInputs = {}): Controller[] {
  const controllers = [createNamespaceController(deps), createGarbageCollector(deps), createServiceAllocationRepair(deps), createDisruptionController(deps), createServiceAccountController(deps), createClusterRoleAggregationController(deps)];
  if (inputs.rootCaBundle !== undefined) controllers.push(createRootCaPublisher(deps, { rootCaBundle: inputs.rootCaBundle }));
  return controllers;
}
