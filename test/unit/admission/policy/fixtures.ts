// What the ValidatingAdmissionPolicy tests share: a policy source fed with objects, the dispatch
// deps over an in-memory object set and the built-in registry, and a Deployment request.
import type { AdmissionAttributes } from '../../../../internal/admission/attributes.ts';
import type { GroupResourceName } from '../../../../internal/admission/plugin.ts';
import { authorizerVariable } from '../../../../internal/admission/policy/authorizer-variable.ts';
import { dispatchPolicies, type PolicyDispatchDeps } from '../../../../internal/admission/policy/policy-dispatcher.ts';
import { PolicySource } from '../../../../internal/admission/policy/policy-source.ts';
import { RegistryEquivalents } from '../../../../internal/admission/registry-equivalents.ts';
import type { Authorizer } from '../../../../internal/authz/authorizer.ts';
import type { ResourceRegistry } from '../../../../internal/registry/resource-registry.ts';
import type { KObject, ResourceDeclaration } from '../../../../internal/registry/schema/declaration.ts';
import type { ServedResource, ServedResources } from '../../../../internal/registry/served-resource.ts';
import { memoryObjects, podAttributes, type TestAttributes } from '../webhook/fixtures.ts';

function served(group: string, version: string, kind: string, plural: string, namespaced: boolean): ServedResource {
  return { decl: { group, version, kind, plural, namespaced, subresources: {} } as unknown as ResourceDeclaration, group, version, apiVersion: group === '' ? version : `${group}/${version}` };
}

/** The served resources the tests need (the full registry is the server's business). */
const resources = [served('', 'v1', 'ConfigMap', 'configmaps', true), served('', 'v1', 'Namespace', 'namespaces', false), served('apps', 'v1', 'Deployment', 'deployments', true)];
export const registry: ServedResources = {
  apiDomain: 'k8s.io',
  resources,
  find: (group, version, plural) => resources.find((r) => r.group === group && r.version === version && r.decl.plural === plural),
};
const group = 'admissionregistration.k8s.io';

/** A policy on Deployment creates and updates with `spec` merged in. */
export function policy(name: string, spec: Record<string, unknown>): KObject {
  return {
    apiVersion: `${group}/v1beta1`, kind: 'ValidatingAdmissionPolicy', metadata: { name, uid: `uid-${name}`, generation: 1 },
    spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] }, ...spec },
  };
}

/** A binding of `policyName` with `spec` merged in (validationActions Deny by default). */
export function binding(name: string, policyName: string, spec: Record<string, unknown> = {}): KObject {
  return { apiVersion: `${group}/v1beta1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } };
}

/** A ConfigMap in `ns` with `data`. */
export function configMap(name: string, ns: string, data: Record<string, string>, labels: Record<string, string> = {}): [GroupResourceName, KObject] {
  return [{ group: '', resource: 'configmaps' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels }, data }];
}

/** The namespace `ns` labelled env=prod. */
export const prodNamespace: [GroupResourceName, KObject] = [{ group: '', resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: { env: 'prod' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }];

/** A Deployment create of `replicas` in `ns` by alice. */
export function deploymentAttributes(replicas: number, overrides: Partial<Omit<AdmissionAttributes, 'addAnnotation' | 'addWarning'>> = {}): TestAttributes {
  return podAttributes({
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    name: 'web',
    object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ns', labels: { app: 'web' } }, spec: { replicas } },
    ...overrides,
  });
}

/** An authorizer allowing what `allow` says. */
export function testAuthorizer(allow: (verb: string, resource: string) => boolean = () => false): Authorizer {
  return { authorize: (a) => ({ decision: allow(a.verb, a.resource) ? 'allow' : 'no-opinion', reason: allow(a.verb, a.resource) ? 'allowed by test' : '' }) };
}

/** Deps over `objects` (the `ns` namespace always present). */
export function dispatchDeps(objects: readonly [GroupResourceName, KObject][], authorizer: Authorizer = testAuthorizer()): PolicyDispatchDeps {
  return {
    objects: memoryObjectsByNamespace([prodNamespace, ...objects]),
    equivalents: new RegistryEquivalents(registry as ResourceRegistry),
    registry,
    authorizerFor: (attributes) => authorizerVariable(authorizer, attributes),
  };
}

/** memoryObjects with list narrowed to a resource and namespace. */
function memoryObjectsByNamespace(objects: readonly [GroupResourceName, KObject][]): ReturnType<typeof memoryObjects> {
  const base = memoryObjects(objects);
  return {
    get: base.get,
    list: (gr, ns) => Promise.resolve(objects.filter(([g, o]) => g.group === gr.group && g.resource === gr.resource && (ns === undefined || o.metadata.namespace === ns)).map(([, o]) => o)),
  };
}

/** Runs the policies and bindings over a request; resolves to the refusal, or undefined when admitted. */
export async function run(policies: readonly KObject[], bindings: readonly KObject[], attributes: AdmissionAttributes, deps: PolicyDispatchDeps): Promise<unknown> {
  const source = new PolicySource();
  source.replacePolicies(policies);
  source.replaceBindings(bindings);
  try {
    await dispatchPolicies(source.snapshot(), attributes, deps);
    return undefined;
  } catch (err) {
    return err;
  }
}
