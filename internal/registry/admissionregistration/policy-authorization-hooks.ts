// Read authorization of a policy's params, as kube-apiserver 1.28's validatingadmissionpolicy and
// validatingadmissionpolicybinding strategies (authz.go) check it: a policy's messageExpression can
// print its params, so whoever sets a ValidatingAdmissionPolicy's paramKind must be able to `get`
// every object of that kind, and whoever sets a binding's paramRef must be able to `get` what it
// references. The checks run as write hooks (after defaults and validation, before the write, dry
// runs included) and refuse with kube's 422: a Forbidden cause at spec.paramKind or spec.paramRef.
// system:masters members and the server's own writes skip them.
import type { UserInfo } from '../../authn/user-info.ts';
import { systemMasters } from '../../authn/user-info.ts';
import { resourceAttributes } from '../../authz/request-attributes.ts';
import type { Storage } from '../../storage/storage.ts';
import type { StoreAuthorization } from '../authorization/store-authorization.ts';
import { invalid } from '../errors/status-error.ts';
import { decodeKeyValue } from '../generic/codec.ts';
import { objectKey } from '../generic/keys.ts';
import type { FinishWrite, WriteHooks, WriterInfo } from '../generic/write-hooks.ts';
import type { KObject } from '../schema/declaration.ts';
import { forbidden, toCauses } from '../schema/field-errors.ts';
import type { ServedResources } from '../served-resource.ts';
import { validatingadmissionpolicies } from './validatingadmissionpolicies.ts';

type Entry = Record<string, unknown>;

/** The plural serving `kind` at `apiVersion` (`v1` or `group/version`), or undefined when nothing serves it (kube's resourceResolver). */
export type ResourceOf = (apiVersion: string, kind: string) => string | undefined;

/** The stored ValidatingAdmissionPolicy named `name`, or undefined (kube's policyGetter). */
export type PolicyOf = (name: string) => Promise<KObject | undefined>;

/** What the hooks need besides the server's authorization. */
export interface PolicyAuthorizationOptions {
  /** Resolves a paramKind to its resource; absent or unresolved: every resource of the group version (`*`), as kube. */
  readonly resourceOf?: ResourceOf;
  /** Bindings only: the policy a binding names (its paramKind picks the resource); absent or not found: `*` everywhere, as kube. */
  readonly policyOf?: PolicyOf;
  /** The API domain (`k8s.io`); absent: taken from the authorization's RBAC group. */
  readonly apiDomain?: string;
}

const nothingToFinish: FinishWrite = () => Promise.resolve();

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function specOf(obj: KObject | undefined): Entry {
  return obj !== undefined && isEntry(obj.spec) ? obj.spec : {};
}

/** The resolver over a server's served resources (built-in and custom, as they change). */
export function servedResourceOf(registry: ServedResources): ResourceOf {
  return (apiVersion, kind) => registry.resources.find((r) => r.apiVersion === apiVersion && r.decl.kind === kind)?.decl.plural;
}

/** The reader of stored policies straight from `storage` (the policies' own store may not exist yet when the bindings' is made). */
export function storedPolicyOf(storage: Storage): PolicyOf {
  return async (name) => {
    if (name === '') return undefined;
    const kv = await storage.get(objectKey(validatingadmissionpolicies, undefined, name));
    return kv === null ? undefined : decodeKeyValue(kv);
  };
}

/** Go's `%v` of a *user.DefaultInfo: `&{name uid [groups] map[key:[values]]}`. */
export function goUserText(user: UserInfo): string {
  const extra = Object.keys(user.extra).sort().map((key) => `${key}:[${(user.extra[key] ?? []).join(' ')}]`);
  return `&{${user.username} ${user.uid} [${user.groups.join(' ')}] map[${extra.join(' ')}]}`;
}

/** schema.ParseGroupVersion: '' and '/' are empty; one slash splits; more is an error (undefined). */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return undefined;
}

/** The group, version and resource to authorize for `paramKind`: `*` for what cannot be parsed or resolved. */
function paramTarget(paramKind: Entry | undefined, resourceOf: ResourceOf | undefined): { apiGroup: string; apiVersion: string; resource: string } {
  const target = { apiGroup: '*', apiVersion: '*', resource: '*' };
  if (paramKind === undefined) return target;
  const gv = parseGroupVersion(text(paramKind.apiVersion));
  if (gv === undefined) return target;
  const canonical = gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
  return { apiGroup: gv.group, apiVersion: gv.version, resource: resourceOf?.(canonical, text(paramKind.kind)) ?? '*' };
}

function apiDomainOf(options: PolicyAuthorizationOptions, authorization: StoreAuthorization): string {
  if (options.apiDomain !== undefined) return options.apiDomain;
  const prefix = 'rbac.authorization.';
  return authorization.rbacGroup.startsWith(prefix) ? authorization.rbacGroup.slice(prefix.length) : 'k8s.io';
}

/** Whether `user` may `get` as `parts` says; an authorizer's error is the refusal's message, as kube returns it. */
async function mayGet(authorization: StoreAuthorization, user: UserInfo, parts: { apiGroup: string; apiVersion: string; resource: string; namespace: string; name: string }): Promise<{ allowed: true } | { allowed: false; error?: string }> {
  const decision = await authorization.authorizer.authorize(resourceAttributes(user, { verb: 'get', ...parts }));
  if (decision.decision === 'allow') return { allowed: true };
  return decision.error === undefined ? { allowed: false } : { allowed: false, error: decision.error.message };
}

type Check = (obj: KObject, old: KObject | undefined, user: UserInfo) => Promise<string | null>;

function hooksOf(kind: string, group: string, field: string, check: Check): WriteHooks {
  const run = async (obj: KObject, old: KObject | undefined, writer: WriterInfo): Promise<FinishWrite> => {
    const user = writer.user;
    // The server's own writes, and superusers (kube's rbacregistry.EscalationAllowed), skip the check.
    if (user === undefined || user.groups.includes(systemMasters)) return nothingToFinish;
    const refusal = await check(obj, old, user);
    if (refusal !== null) throw invalid(kind, group, obj.metadata.name ?? '', toCauses([forbidden(field, refusal)]));
    return nothingToFinish;
  };
  return {
    beginCreate: (obj, _dryRun, writer) => run(obj, undefined, writer),
    beginUpdate: (obj, old, _dryRun, writer) => run(obj, old, writer),
  };
}

/** A ValidatingAdmissionPolicy's check: a set or changed paramKind needs `get` on all its objects. */
function policyCheck(authorization: StoreAuthorization, options: PolicyAuthorizationOptions): Check {
  return async (obj, old, user) => {
    const paramKind = specOf(obj).paramKind;
    if (!isEntry(paramKind)) return null;
    const oldParamKind = specOf(old).paramKind;
    if (old !== undefined && isEntry(oldParamKind) && text(oldParamKind.apiVersion) === text(paramKind.apiVersion) && text(oldParamKind.kind) === text(paramKind.kind)) return null;
    const answer = await mayGet(authorization, user, { ...paramTarget(paramKind, options.resourceOf), namespace: '*', name: '*' });
    if (answer.allowed) return null;
    return answer.error ?? `user ${goUserText(user)} must have "get" permission on all objects of the referenced paramKind (kind=${text(paramKind.kind)}, apiVersion=${text(paramKind.apiVersion)})`;
  };
}

/**
 * Whether kube sees two paramRefs as equal: it compares the structs, whose selector and
 * parameterNotFoundAction are pointers, so refs with either set (a stored, defaulted one always
 * has its action) never are, and such an update is authorized again.
 */
function sameParamRef(a: Entry, b: Entry): boolean {
  const unset = (ref: Entry): boolean => ref.selector === undefined && ref.parameterNotFoundAction === undefined;
  return text(a.name) === text(b.name) && text(a.namespace) === text(b.namespace) && unset(a) && unset(b);
}

/** A ValidatingAdmissionPolicyBinding's check: a set or changed paramRef needs `get` on what it references. */
function bindingCheck(authorization: StoreAuthorization, options: PolicyAuthorizationOptions): Check {
  return async (obj, old, user) => {
    const spec = specOf(obj);
    const paramRef = spec.paramRef;
    if (!isEntry(paramRef)) return null;
    const oldSpec = specOf(old);
    if (old !== undefined && isEntry(oldSpec.paramRef) && sameParamRef(oldSpec.paramRef, paramRef) && text(oldSpec.policyName) === text(spec.policyName)) return null;
    let paramKind: Entry | undefined;
    try {
      const policy = await options.policyOf?.(text(spec.policyName));
      const kind = specOf(policy).paramKind;
      if (isEntry(kind)) paramKind = kind;
    } catch {
      // As kube: a policy that cannot be read leaves every resource (`*`) to authorize.
    }
    const answer = await mayGet(authorization, user, { ...paramTarget(paramKind, options.resourceOf), namespace: text(paramRef.namespace), name: text(paramRef.name) });
    if (answer.allowed) return null;
    return answer.error ?? `user ${goUserText(user)} does not have "get" permission on the object referenced by paramRef`;
  };
}

/**
 * The write hooks of ValidatingAdmissionPolicies or ValidatingAdmissionPolicyBindings (both
 * versions, which share their objects): the paramKind / paramRef read authorization above.
 */
export function policyParamAuthorizationHooks(kind: 'ValidatingAdmissionPolicy' | 'ValidatingAdmissionPolicyBinding', authorization: StoreAuthorization, options: PolicyAuthorizationOptions = {}): WriteHooks {
  const group = `admissionregistration.${apiDomainOf(options, authorization)}`;
  return kind === 'ValidatingAdmissionPolicy'
    ? hooksOf(kind, group, 'spec.paramKind', policyCheck(authorization, options))
    : hooksOf(kind, group, 'spec.paramRef', bindingCheck(authorization, options));
}

/** What a store is built with, as far as these hooks read it (resource-registry's StoreDeps). */
export interface PolicyHookDeps {
  readonly authorization?: StoreAuthorization;
  /** The served resources, to resolve a paramKind; absent: `*` (stricter than kube, never looser). */
  readonly registry?: ServedResources;
}

/**
 * The hooks as resource-registry's writeHooks map makes them from a store's storage and deps:
 * none without authorization (stores built outside a server), as the RBAC escalation hooks.
 */
export function policyParamWriteHooks(kind: 'ValidatingAdmissionPolicy' | 'ValidatingAdmissionPolicyBinding', storage: Storage, deps: PolicyHookDeps): WriteHooks {
  if (deps.authorization === undefined) return {};
  return policyParamAuthorizationHooks(kind, deps.authorization, {
    ...(deps.registry === undefined ? {} : { resourceOf: servedResourceOf(deps.registry), apiDomain: deps.registry.apiDomain }),
    ...(kind === 'ValidatingAdmissionPolicyBinding' ? { policyOf: storedPolicyOf(storage) } : {}),
  });
}
