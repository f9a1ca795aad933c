import { daemonsets } from './apps/daemonsets.ts';
import { deployments } from './apps/deployments.ts';
import { replicasets } from './apps/replicasets.ts';
import { statefulsets } from './apps/statefulsets.ts';
import { leases } from './coordination/leases.ts';
import { certificatesigningrequests } from './certificates/certificatesigningrequests.ts';
import { configmaps } from './core/configmaps.ts';
import { endpoints } from './core/endpoints.ts';
import { events } from './core/events.ts';
import { limitranges } from './core/limitranges.ts';
import { persistentvolumeclaims } from './core/persistentvolumeclaims.ts';
import { persistentvolumes } from './core/persistentvolumes.ts';
import { resourcequotas } from './core/resourcequotas.ts';
import { namespaces } from './core/namespaces.ts';
import { NamespaceStore } from './core/namespace-store.ts';
import { nodes } from './core/nodes.ts';
import { pods } from './core/pods.ts';
import { BindingStore, bindings } from './core/pod/bindings.ts';
import { podSubresourceStores } from './core/pod/pod-subresources.ts';
import { proxyStore } from './core/node-agent.ts';
import type { SubresourceStore } from './generic/subresource-store.ts';
import { secrets } from './core/secrets.ts';
import { serviceaccounts } from './core/serviceaccounts.ts';
import type { ServiceAccountTokens } from './core/serviceaccount/service-account-tokens.ts';
import { serviceAccountSubresourceStores } from './core/serviceaccount/token-subresource.ts';
import { TokenReviewStore, tokenreviews } from './authentication/tokenreviews.ts';
import { services } from './core/services.ts';
import { eventsV1 } from './events/events.ts';
import { horizontalpodautoscalers, horizontalpodautoscalersV1 } from './autoscaling/horizontalpodautoscalers.ts';
import { controllerrevisions } from './apps/controllerrevisions.ts';
import { cronjobs } from './batch/cronjobs.ts';
import { jobs } from './batch/jobs.ts';
import { ComponentStatusStore, componentstatuses } from './core/componentstatuses.ts';
import { podtemplates } from './core/podtemplates.ts';
import { replicationcontrollers } from './core/replicationcontrollers.ts';
import { endpointslices } from './discovery/endpointslices.ts';
import { flowschemas, flowschemasV1beta2 } from './flowcontrol/flowschemas.ts';
import { prioritylevelconfigurations, prioritylevelconfigurationsV1beta2 } from './flowcontrol/prioritylevelconfigurations.ts';
import { apiservices } from './apiregistration/apiservices.ts';
import { customresourcedefinitions } from './apiextensions/customresourcedefinitions.ts';
import { CrdStore } from './apiextensions/crd-store.ts';
import { GenericStore } from './generic/store.ts';
import type { WriteHooks } from './generic/write-hooks.ts';
import { serviceWriteHooks } from './core/service/allocation.ts';
import { serviceNetwork, type ServiceNetwork } from './core/service/network.ts';
import { ingressclasses } from './networking/ingressclasses.ts';
import { ingresses } from './networking/ingresses.ts';
import { networkpolicies } from './networking/networkpolicies.ts';
import { runtimeclasses } from './node/runtimeclasses.ts';
import { mutatingwebhookconfigurations } from './admissionregistration/mutatingwebhookconfigurations.ts';
import { validatingwebhookconfigurations } from './admissionregistration/validatingwebhookconfigurations.ts';
import { validatingadmissionpolicies, validatingadmissionpoliciesV1alpha1 } from './admissionregistration/validatingadmissionpolicies.ts';
import { validatingadmissionpolicybindings, validatingadmissionpolicybindingsV1alpha1 } from './admissionregistration/validatingadmissionpolicybindings.ts';
import { poddisruptionbudgets } from './policy/poddisruptionbudgets.ts';
import { clusterrolebindings } from './rbac/clusterrolebindings.ts';
import { clusterroles } from './rbac/clusterroles.ts';
import { rolebindings } from './rbac/rolebindings.ts';
import { roles } from './rbac/roles.ts';
import { priorityclasses } from './scheduling/priorityclasses.ts';
import { csidrivers } from './storage/csidrivers.ts';
import { csinodes } from './storage/csinodes.ts';
import { csistoragecapacities } from './storage/csistoragecapacities.ts';
import { storageclasses } from './storage/storageclasses.ts';
import { volumeattachments } from './storage/volumeattachments.ts';
import type { Storage } from '../storage/storage.ts';
import { localsubjectaccessreviews, localSubjectAccessReviewKind, selfsubjectaccessreviews, selfSubjectAccessReviewKind, selfsubjectrulesreviews, selfSubjectRulesReviewKind, subjectaccessreviews, subjectAccessReviewKind } from './authorization/access-reviews.ts';
import { ReviewStore, type ReviewKind } from './authorization/review-store.ts';
import type { StoreAuthorization } from './authorization/store-authorization.ts';
import { policyParamWriteHooks } from './admissionregistration/policy-authorization-hooks.ts';
import { selfsubjectreviews, selfSubjectReviewKind, selfsubjectreviewsV1alpha1, selfsubjectreviewsV1beta1 } from './authentication/selfsubjectreviews.ts';
import { bindingEscalationHooks, roleEscalationHooks } from './rbac/escalation-hooks.ts';
import type { ResourceDeclaration } from './schema/declaration.ts';
import { servedGroup, type ServedResource, type ServedResources } from './served-resource.ts';
import type { RuntimeConfig } from './runtime-config.ts';

/** Every built-in resource declaration, in discovery order. */
export const builtinDeclarations: readonly ResourceDeclaration[] = [
  namespaces, configmaps, secrets, serviceaccounts, services, endpoints, pods, bindings, nodes, events,
  limitranges, resourcequotas, persistentvolumes, persistentvolumeclaims,
  podtemplates, replicationcontrollers, componentstatuses,
  deployments, replicasets, statefulsets, daemonsets, controllerrevisions,
  eventsV1, leases,
  horizontalpodautoscalers, horizontalpodautoscalersV1,
  jobs, cronjobs,
  certificatesigningrequests,
  roles, clusterroles, rolebindings, clusterrolebindings,
  ingresses, ingressclasses, networkpolicies,
  poddisruptionbudgets,
  storageclasses, csidrivers, csinodes, volumeattachments, csistoragecapacities,
  priorityclasses, runtimeclasses, endpointslices,
  flowschemas, flowschemasV1beta2, prioritylevelconfigurations, prioritylevelconfigurationsV1beta2,
  validatingwebhookconfigurations, mutatingwebhookconfigurations,
  validatingadmissionpolicies, validatingadmissionpoliciesV1alpha1, validatingadmissionpolicybindings, validatingadmissionpolicybindingsV1alpha1,
  apiservices, customresourcedefinitions,
  selfsubjectreviews, selfsubjectreviewsV1beta1, selfsubjectreviewsV1alpha1,
  tokenreviews,
  subjectaccessreviews, localsubjectaccessreviews, selfsubjectaccessreviews, selfsubjectrulesreviews,
];

/** What some resources' stores need besides storage: the cluster's Service network, a log for side effects that fail, the server's authorization. */
export interface StoreDeps {
  readonly serviceNetwork: ServiceNetwork;
  readonly log: (message: string, err?: unknown) => void;
  /** Absent: RBAC writes are not checked for escalation and access reviews answer 500 (stores built outside a server). */
  readonly authorization?: StoreAuthorization;
  /** The served resources (a ValidatingAdmissionPolicy's paramKind resolves through them). */
  readonly registry?: ServedResources;
  /** The server's token issuer and authenticator (TokenRequest, TokenReview); absent: neither is answered. */
  readonly serviceAccountTokens?: ServiceAccountTokens;
}

type OwnStore = (storage: Storage, served: ServedResource, deps: StoreDeps) => GenericStore;

const reviewStore = (kind: ReviewKind): OwnStore => (storage, served, deps) => new ReviewStore(storage, served, kind, deps.authorization);

/** Resources whose store is their own rather than the generic one (as kube-apiserver overrides a resource's storage). */
const ownStores: ReadonlyMap<ResourceDeclaration, OwnStore> = new Map<ResourceDeclaration, OwnStore>([
  [componentstatuses, (storage, served) => new ComponentStatusStore(storage, served)],
  [namespaces, (storage, served) => new NamespaceStore(storage, served)],
  [customresourcedefinitions, (storage, served) => new CrdStore(storage, served)],
  [bindings, (storage, served) => new BindingStore(storage, served)],
  [subjectaccessreviews, reviewStore(subjectAccessReviewKind)],
  [localsubjectaccessreviews, reviewStore(localSubjectAccessReviewKind)],
  [selfsubjectaccessreviews, reviewStore(selfSubjectAccessReviewKind)],
  [selfsubjectrulesreviews, reviewStore(selfSubjectRulesReviewKind)],
  [selfsubjectreviews, reviewStore(selfSubjectReviewKind)],
  [selfsubjectreviewsV1beta1, reviewStore(selfSubjectReviewKind)],
  [selfsubjectreviewsV1alpha1, reviewStore(selfSubjectReviewKind)],
  [tokenreviews, (storage, served, deps) => new TokenReviewStore(storage, served, deps.serviceAccountTokens)],
]);

/** Resources with side effects outside their own key, through the generic store's hooks (kube-apiserver's BeginCreate and friends). */
const writeHooks: ReadonlyMap<ResourceDeclaration, (storage: Storage, deps: StoreDeps) => WriteHooks> = new Map([
  [services, (storage: Storage, deps: StoreDeps) => serviceWriteHooks({ storage, network: deps.serviceNetwork, log: deps.log })],
  [roles, (_storage: Storage, deps: StoreDeps) => (deps.authorization ? roleEscalationHooks('Role', deps.authorization) : {})],
  [clusterroles, (_storage: Storage, deps: StoreDeps) => (deps.authorization ? roleEscalationHooks('ClusterRole', deps.authorization) : {})],
  [rolebindings, (_storage: Storage, deps: StoreDeps) => (deps.authorization ? bindingEscalationHooks('RoleBinding', deps.authorization) : {})],
  [clusterrolebindings, (_storage: Storage, deps: StoreDeps) => (deps.authorization ? bindingEscalationHooks('ClusterRoleBinding', deps.authorization) : {})],
  [validatingadmissionpolicies, (storage: Storage, deps: StoreDeps) => policyParamWriteHooks('ValidatingAdmissionPolicy', storage, deps)],
  [validatingadmissionpoliciesV1alpha1, (storage: Storage, deps: StoreDeps) => policyParamWriteHooks('ValidatingAdmissionPolicy', storage, deps)],
  [validatingadmissionpolicybindings, (storage: Storage, deps: StoreDeps) => policyParamWriteHooks('ValidatingAdmissionPolicyBinding', storage, deps)],
  [validatingadmissionpolicybindingsV1alpha1, (storage: Storage, deps: StoreDeps) => policyParamWriteHooks('ValidatingAdmissionPolicyBinding', storage, deps)],
]);

/** The behaviour of the kinds' own sub-resources that are not views (each declared in its Subresources.more), made on the kind's store. */
const subresourceStores: ReadonlyMap<ResourceDeclaration, (self: GenericStore, deps: StoreDeps) => Readonly<Record<string, SubresourceStore>>> = new Map([
  [pods, podSubresourceStores],
  [serviceaccounts, (self: GenericStore, deps: StoreDeps) => serviceAccountSubresourceStores(self, deps.serviceAccountTokens)],
  [services, (self: GenericStore) => ({ proxy: proxyStore(self, 'service') })],
  [nodes, (self: GenericStore) => ({ proxy: proxyStore(self, 'node') })],
]);

/** The store of a served resource over `storage`: its own where it has one, else the generic store (with the resource's hooks and sub-resources). */
export function storeFor(storage: Storage, served: ServedResource, deps: StoreDeps = { serviceNetwork: serviceNetwork(), log: () => undefined }): GenericStore {
  const own = ownStores.get(served.decl);
  if (own !== undefined) return own(storage, served, deps);
  const subresources = subresourceStores.get(served.decl);
  return new GenericStore(storage, served, writeHooks.get(served.decl)?.(storage, deps), subresources && ((self) => subresources(self, deps)));
}

// Re-exported: most of the server names them with the registry.
export { servedGroup, type ServedResource } from './served-resource.ts';

/** Which built-in resources a server serves beyond the defaults: `--runtime-config` and `--feature-gates`. */
export interface ServingOptions {
  /** Whether a group version (or one resource of it) is served; absent: the declaration's default. */
  readonly runtimeConfig?: RuntimeConfig;
  /** Feature gates turned on or off (`--feature-gates`); a gate not named keeps its 1.28 default (off for those declarations name). */
  readonly featureGates?: ReadonlyMap<string, boolean>;
}

/**
 * The resources served by one API server, looked up by group, version and plural: the built-in
 * ones chosen at start, and the custom ones CustomResourceDefinitions add and remove while it
 * runs (each set under its definition's name). `generation` counts the changes, so that what is
 * derived from the set (discovery, OpenAPI) knows when to derive it again.
 */
export class ResourceRegistry implements ServedResources {
  private readonly builtin: readonly ServedResource[];
  private readonly custom = new Map<string, readonly ServedResource[]>();
  private served: readonly ServedResource[];
  private readonly byPath = new Map<string, ServedResource>();
  private readonly listeners = new Set<() => void>();
  private changes = 0;

  constructor(
    readonly apiDomain: string,
    declarations: readonly ResourceDeclaration[] = builtinDeclarations,
    options: ServingOptions = {},
  ) {
    this.builtin = declarations.filter((decl) => isServed(decl, servedGroup(decl, apiDomain), options)).map((decl) => this.place(decl));
    this.served = this.builtin;
    this.index();
  }

  /** Every served resource: the built-in ones, then the custom ones in the order they were added. */
  get resources(): readonly ServedResource[] {
    return this.served;
  }

  /** How many times the set of served resources changed since start. */
  get generation(): number {
    return this.changes;
  }

  /** The resource at `group/version/plural`, or undefined. */
  find(group: string, version: string, plural: string): ServedResource | undefined {
    return this.byPath.get(`${group}/${version}/${plural}`);
  }

  /**
   * Serves `declarations` under `owner` (a CustomResourceDefinition's name), replacing what it
   * served before; returns them as served. One whose path a built-in resource has is not served
   * (the built-in one answers there, as in kube-apiserver's handler chain).
   */
  setCustom(owner: string, declarations: readonly ResourceDeclaration[]): readonly ServedResource[] {
    const builtinPaths = new Set(this.builtin.map((r) => `${r.group}/${r.version}/${r.decl.plural}`));
    const served = declarations.map((decl) => this.place(decl)).filter((r) => !builtinPaths.has(`${r.group}/${r.version}/${r.decl.plural}`));
    this.custom.set(owner, served);
    this.changed();
    return served;
  }

  /** Stops serving what `owner` added. */
  removeCustom(owner: string): void {
    if (this.custom.delete(owner)) this.changed();
  }

  /** Calls `listener` after every change of the served set; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Served group names with their versions, core ('') first. */
  groups(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const r of this.served) {
      const versions = out.get(r.group) ?? [];
      if (!versions.includes(r.version)) versions.push(r.version);
      out.set(r.group, versions);
    }
    return out;
  }

  /** The resources of one group version. */
  inGroupVersion(group: string, version: string): ServedResource[] {
    return this.served.filter((r) => r.group === group && r.version === version);
  }

  private place(decl: ResourceDeclaration): ServedResource {
    const group = servedGroup(decl, this.apiDomain);
    return { decl, group, version: decl.version, apiVersion: group === '' ? decl.version : `${group}/${decl.version}` };
  }

  private changed(): void {
    this.served = [...this.builtin, ...[...this.custom.values()].flat()];
    this.index();
    this.changes++;
    for (const listener of [...this.listeners]) listener();
  }

  private index(): void {
    this.byPath.clear();
    for (const r of this.served) this.byPath.set(`${r.group}/${r.version}/${r.decl.plural}`, r);
  }
}

/** Whether a built-in declaration is served under the options (its feature gate on, its group version not turned off). */
function isServed(decl: ResourceDeclaration, group: string, options: ServingOptions): boolean {
  if (decl.featureGate !== undefined && options.featureGates?.get(decl.featureGate) !== true) return false;
  const chosen = options.runtimeConfig?.served(group, decl.version, decl.plural, decl.version.includes('alpha') ? 'alpha' : decl.version.includes('beta') ? 'beta' : 'ga');
  return chosen ?? decl.servedByDefault !== false;
}

/**
 * One store per group and resource, keyed `<group>/<plural>`: a resource served at several
 * versions holds one set of objects, and its first served version stands for it.
 */
export function storesByResource(registry: ResourceRegistry, stores: ReadonlyMap<ServedResource, GenericStore>): Map<string, GenericStore> {
  const out = new Map<string, GenericStore>();
  for (const served of registry.resources) {
    const key = `${served.group}/${served.decl.plural}`;
    const store = stores.get(served);
    if (store !== undefined && !out.has(key)) out.set(key, store);
  }
  return out;
}
