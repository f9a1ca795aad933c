import type { Controller, ControllerDeps } from './controller.ts';
import { createClusterRoleAggregationController } from './clusterrole-aggregation.ts';
import { createFlowSchemaStatusController, flowSchemaStatusName } from './flowschema-status-controller.ts';
import { createCrdFinalizerController } from './apiextensions/crd-finalizer-controller.ts';
import { createCrdNamingController } from './apiextensions/crd-naming-controller.ts';
import { apiServerStores, authorizedStores, controllerManagerUser, controllerUser, type ControllerAction } from './controller-identity.ts';
import { createDisruptionController } from './disruption/disruption-controller.ts';
import { createGarbageCollector } from './garbage-collector/garbage-collector.ts';
import { createNamespaceController } from './namespace-controller.ts';
import { createResourceQuotaController } from './resourcequota/resource-quota-controller.ts';
import { createServiceAllocationRepair } from './service-allocation-repair.ts';
import { createServiceAccountController } from './serviceaccounts/default-service-account.ts';
import { createRootCaPublisher } from './serviceaccounts/root-ca-publisher.ts';
import { createLegacyTokenController, type LegacyTokenOptions } from './serviceaccounts/legacy-token-secrets.ts';
import { createBootstrapSigner } from './bootstrap/bootstrap-signer.ts';
import { clusterInfoPublisherName, createClusterInfoPublisher, type ClusterInfoOptions } from './bootstrap/cluster-info.ts';
import { createTokenCleaner } from './bootstrap/token-cleaner.ts';
import { defaultControllerSelection, type ControllerSelection } from './controller-selection.ts';
import { crdFinalizerName } from './apiextensions/crd-finalizer-controller.ts';
import { crdNamingName } from './apiextensions/crd-naming-controller.ts';
import { serviceAllocationRepairName } from './service-allocation-repair.ts';
import { createCsrApprovingController } from './certificates/csr-approving-controller.ts';
import { createCsrCleanerController } from './certificates/csr-cleaner-controller.ts';
import { createCsrSigningController, type CsrSigningOptions } from './certificates/csr-signing-controller.ts';

/** What some controllers publish, given by the replica. */
export interface ControllerInputs {
  /**
   * PEM of the CA that signs the API servers' serving certificates (the cluster CA): published as
   * ConfigMap kube-root-ca.crt in every namespace. Absent: the root-ca-cert-publisher does not run.
   */
  readonly rootCaBundle?: string;
  /**
   * Mints the non-expiring token of a `kubernetes.io/service-account-token` Secret (the server's
   * service-account token issuer). Absent: the tokens controller does not run.
   */
  readonly issueLegacyToken?: LegacyTokenOptions['issueToken'];
  /**
   * ConfigMap cluster-info's API URL and CA, and whether kubeadm's join bindings are made too
   * (--enable-bootstrap-token-auth). Absent: the cluster-info publisher does not run.
   */
  readonly clusterInfo?: ClusterInfoOptions;
  /** `--controllers`: which of the controller manager's controllers run (default `*`). */
  readonly selection?: ControllerSelection;
  /**
   * The certificate signers' CAs and duration (the --cluster-signing-* flags). Absent: csrsigning
   * does not run (kube-controller-manager without signing files).
   */
  readonly csrSigning?: CsrSigningOptions;
}

/** Part of kube-apiserver itself (or, cluster-info, of kubeadm init), not of the controller manager: `--controllers` does not reach them. */
const apiServerControllers: ReadonlySet<string> = new Set([serviceAllocationRepairName, crdNamingName, crdFinalizerName, clusterInfoPublisherName, flowSchemaStatusName]);

/** The name `--controllers` knows a controller by, where orch's differs. */
const selectionNames: Readonly<Record<string, string>> = { 'garbage-collector': 'garbagecollector' };

function selected(controller: Controller, selection: ControllerSelection): boolean {
  return apiServerControllers.has(controller.name) || selection.enabled(selectionNames[controller.name] ?? controller.name);
}

/** What a controller's view of the stores is audited with: none when audit is off. */
function auditOf(deps: ControllerDeps, component: string): { auditor: NonNullable<ControllerDeps['audit']>; component: string } | undefined {
  return deps.audit === undefined ? undefined : { auditor: deps.audit, component };
}

/**
 * `deps` as the controller running as service account kube-system:`serviceAccount` sees them:
 * its stores authorized by RBAC against the bootstrap role system:controller:`serviceAccount`,
 * and audited as that user when audit is on.
 */
function as(deps: ControllerDeps, serviceAccount: string): ControllerDeps {
  if (deps.authorizer === undefined && deps.audit === undefined) return deps;
  const logAction = deps.logAction;
  const onAction = logAction === undefined ? undefined : (action: ControllerAction) => logAction(serviceAccount, action);
  return { ...deps, stores: authorizedStores(deps.stores, deps.authorizer, controllerUser(serviceAccount), onAction, auditOf(deps, serviceAccount)) };
}

/**
 * `deps` as a part of kube-apiserver itself sees them: the server's full authority (kube's loopback
 * client, system:apiserver in system:masters), audited as that user when audit is on.
 */
function asApiServer(deps: ControllerDeps, component: string): ControllerDeps {
  return deps.audit === undefined ? deps : { ...deps, stores: apiServerStores(deps.stores, deps.audit, component) };
}

/** Every controller a replica runs while it leads: the one list to add a controller to. */
export function createControllers(deps: ControllerDeps, inputs: ControllerInputs = {}): Controller[] {
  const controllers = [
    createNamespaceController(as(deps, 'namespace-controller')),
    createGarbageCollector(as(deps, 'generic-garbage-collector')),
    // Part of kube-apiserver itself (its loopback client is in system:masters): the server's authority.
    createServiceAllocationRepair(asApiServer(deps, serviceAllocationRepairName)),
    createCrdNamingController(asApiServer(deps, crdNamingName)),
    createCrdFinalizerController(asApiServer(deps, crdFinalizerName)),
    createFlowSchemaStatusController(asApiServer(deps, flowSchemaStatusName)),
    createDisruptionController(as(deps, 'disruption-controller')),
    createServiceAccountController(as(deps, 'service-account-controller')),
    createClusterRoleAggregationController(as(deps, 'clusterrole-aggregation-controller')),
    createResourceQuotaController(as(deps, 'resourcequota-controller')),
    createCsrApprovingController(as(deps, 'certificate-controller')),
    createCsrCleanerController(as(deps, 'certificate-controller')),
  ];
  if (inputs.csrSigning !== undefined) controllers.push(createCsrSigningController(as(deps, 'certificate-controller'), inputs.csrSigning));
  if (inputs.rootCaBundle !== undefined) controllers.push(createRootCaPublisher(as(deps, 'root-ca-cert-publisher'), { rootCaBundle: inputs.rootCaBundle }));
  controllers.push(createBootstrapSigner(as(deps, 'bootstrap-signer')), createTokenCleaner(as(deps, 'token-cleaner')));
  // kubeadm init's part (cluster-info and its RBAC): the server's authority, as kubeadm acts with the admin's.
  if (inputs.clusterInfo !== undefined) controllers.push(createClusterInfoPublisher(asApiServer(deps, clusterInfoPublisherName), inputs.clusterInfo));
  if (inputs.issueLegacyToken !== undefined) {
    // As kube-controller-manager, whose tokens controller uses its own credentials, not a per-controller account.
    const own = deps.authorizer === undefined && deps.audit === undefined ? deps : { ...deps, stores: authorizedStores(deps.stores, deps.authorizer, controllerManagerUser, undefined, auditOf(deps, 'tokens-controller')) };
    controllers.push(createLegacyTokenController(own, { issueToken: inputs.issueLegacyToken, rootCaBundle: inputs.rootCaBundle ?? '' }));
  }
  const selection = inputs.selection ?? defaultControllerSelection;
  return controllers.filter((controller) => selected(controller, selection));
}
