// Kubernetes' authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go) over orch's
// asynchronous authorizer. CEL evaluates synchronously, so a check reads its decision from a
// per-evaluation DecisionCache; a decision not there yet is recorded as pending and the call
// fails with a PendingAuthorization error. The engine then evaluates in passes:
//
//   const cache = new DecisionCache();
//   for (;;) {
//     const result = program({ ...vars, authorizer: authorizerValue(cache) });
//     if (pendingAuthorizations(cache).length === 0) return result;   // final: no check was missing
//     await fillDecisions(cache, authorizer);                          // ask orch's authorizer
//   }
//
// A pass that still finds a missing decision adds it to the cache, so passes are bounded by the
// number of distinct checks (capped at authorizationChecksMax). CEL's error absorption
// (`false && e`, `true || e`) only drops an error when the result does not depend on it, so a
// result reached while a check was pending is still the right one; the loop above re-runs anyway.
import { celMethod, celError, CelScalar, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { descriptors, libraryTypes, messageOf, opaqueValue, boolOf, stringOf, type OpaqueFields } from './types.ts';
import { authorizationChecksMax } from './limits.ts';
import { authorizationCheckCost } from './costs.ts';
import { charge } from '../cost-meter.ts';

/** What one `check(verb)` asks orch's authorizer (kube's authorizer.AttributesRecord). */
export interface AuthorizationCheck {
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** Set for a path check (then group..name are ''), absent for a resource check. */
  path?: string;
  /**
   * Set after `authorizer.serviceAccount(ns, name)`: the check is for that service account
   * (user `system:serviceaccount:<ns>:<name>`, groups `system:serviceaccounts` and
   * `system:serviceaccounts:<ns>`), not for the requester.
   */
  serviceAccount?: { namespace: string; name: string };
}

/** A decision: allowed, kube's reason text, and an error text when the authorizer failed. */
export interface AuthorizationDecision {
  allowed: boolean;
  reason: string;
  error?: string;
}

/** orch's authorizer as the CEL library needs it. */
export interface CelAuthorizer {
  check(attrs: AuthorizationCheck): Promise<AuthorizationDecision>;
}

/** The decisions of one evaluation, keyed by the check's canonical JSON; pending ones have none yet. */
export class DecisionCache {
  private readonly decisions = new Map<string, AuthorizationDecision>();
  private readonly pending = new Map<string, AuthorizationCheck>();

  /**
   * The decision for a check, or undefined (and the check recorded as pending) when missing;
   * `beforeQueue` runs before a missing check is recorded, and may throw to keep it out.
   */
  lookup(attrs: AuthorizationCheck, beforeQueue?: () => void): AuthorizationDecision | undefined {
    const key = checkKey(attrs);
    const decision = this.decisions.get(key);
    if (decision !== undefined) return decision;
    if (this.decisions.size + this.pending.size >= authorizationChecksMax && !this.pending.has(key)) {
      throw celError(`more than ${authorizationChecksMax} authorization checks in one evaluation`);
    }
    beforeQueue?.();
    this.pending.set(key, attrs);
    return undefined;
  }

  /** The decision for a key, if known. */
  get(key: string): AuthorizationDecision | undefined {
    return this.decisions.get(key);
  }

  /** Records a decision and clears the key's pending mark. */
  record(key: string, decision: AuthorizationDecision): void {
    this.decisions.set(key, decision);
    this.pending.delete(key);
  }

  /** The checks waiting for a decision, in the order they were first asked. */
  pendingChecks(): ReadonlyArray<readonly [key: string, attrs: AuthorizationCheck]> {
    return [...this.pending];
  }
}

/** The cache key of a check: its fields in a fixed order. */
export function checkKey(attrs: AuthorizationCheck): string {
  const { verb, group, resource, subresource, namespace, name, path, serviceAccount } = attrs;
  return JSON.stringify([verb, group, resource, subresource, namespace, name, path ?? null, serviceAccount ?? null]);
}

/** Keys of the checks the last pass could not answer. */
export function pendingAuthorizations(cache: DecisionCache): string[] {
  return cache.pendingChecks().map(([key]) => key);
}

/**
 * Asks the authorizer for every pending check (concurrently) and records the decisions. A
 * rejected promise becomes a denied decision carrying the error text, as kube's decision does.
 */
export async function fillDecisions(cache: DecisionCache, authorizer: CelAuthorizer): Promise<void> {
  const pending = cache.pendingChecks();
  const decisions = await Promise.all(
    pending.map(async ([, attrs]) => {
      try {
        return await authorizer.check(attrs);
      } catch (error) {
        return { allowed: false, reason: '', error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  pending.forEach(([key], i) => cache.record(key, decisions[i] as AuthorizationDecision));
}

const pendingMarker = Symbol('orch.cel.pendingAuthorization');

const pendingPrefix = 'authorization decision pending: ';

/**
 * Whether an evaluation error is (or was caused by) a check waiting for its decision. CEL
 * merges errors and may drop causes, so the message is checked too; the authority on what is
 * pending is always pendingAuthorizations(cache).
 */
export function isPendingAuthorization(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 8) return false;
  if (pendingMarker in error) return true;
  if (error instanceof Error && error.message.startsWith(pendingPrefix)) return true;
  if (Array.isArray(error)) return error.some((cause) => isPendingAuthorization(cause, depth + 1));
  return isPendingAuthorization((error as { cause?: unknown }).cause, depth + 1);
}

class PendingAuthorization extends Error {
  readonly [pendingMarker] = true;
}

const caches = new WeakMap<object, DecisionCache>();

function cacheOf(value: ReflectMessage): DecisionCache {
  const cache = caches.get(value.message);
  if (cache === undefined) throw celError('authorizer value was not made by authorizerValue()');
  return cache;
}

function derived(from: ReflectMessage, desc: (typeof descriptors)[keyof typeof descriptors], fields: OpaqueFields): ReflectMessage {
  const value = opaqueValue(desc, fields);
  caches.set(value.message, cacheOf(from));
  return value;
}

function principalOf(value: ReflectMessage): OpaqueFields {
  return { serviceAccountNamespace: stringOf(value, 'serviceAccountNamespace'), serviceAccountName: stringOf(value, 'serviceAccountName') };
}

/** The resource fields a request's own resource check starts from (kube's requestResource). */
export interface RequestResource {
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

/**
 * The activation value of the `authorizer` variable, answering from cache. With a request
 * resource, `authorizer.requestResource` is the ResourceCheck for the request's own resource.
 */
export function authorizerValue(cache: DecisionCache, requestResource?: RequestResource): ReflectMessage {
  const fields: Record<string, string | ReflectMessage> = {};
  if (requestResource !== undefined) {
    const check = opaqueValue(descriptors.resourceCheck, { ...requestResource });
    caches.set(check.message, cache);
    fields['requestResource'] = check;
  }
  const value = opaqueValue(descriptors.authorizer, fields);
  caches.set(value.message, cache);
  const nested = messageOf(value, 'requestResource');
  if (nested !== undefined) caches.set(nested.message, cache);
  return value;
}

/** ValidateNamespaceName: a DNS-1123 label. */
function isDnsLabel(text: string): boolean {
  return text.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(text);
}

/** ValidateServiceAccountName: a DNS-1123 subdomain. */
function isDnsSubdomain(text: string): boolean {
  return text.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(text);
}

function decide(from: ReflectMessage, attrs: AuthorizationCheck): ReflectMessage {
  const namespace = stringOf(from, 'serviceAccountNamespace');
  const name = stringOf(from, 'serviceAccountName');
  const check = namespace === '' && name === '' ? attrs : { ...attrs, serviceAccount: { namespace, name } };
  // A pending check costs what a decided one does (a decided one is charged by the metered call),
  // charged before it is queued: a pass stops asking once its budget is spent, as kube stops
  // calling the authorizer once the checks' cost passes the limit.
  const decision = cacheOf(from).lookup(check, () => charge(authorizationCheckCost));
  if (decision === undefined) throw celError(new PendingAuthorization(`${pendingPrefix}${checkKey(check)}`));
  return opaqueValue(descriptors.decision, { allowed: decision.allowed, reason: decision.reason, error: decision.error ?? '' });
}

const t = libraryTypes;

/** The authorizer library's functions. */
export const authorizerLibrary: readonly CelFunc[] = [
  celMethod('path', t.authorizer, [CelScalar.STRING], t.pathCheck, function (path: string) {
    if (path.trim() === '') throw celError('path must not be empty');
    return derived(this, descriptors.pathCheck, { ...principalOf(this), path });
  }),
  celMethod('group', t.authorizer, [CelScalar.STRING], t.groupCheck, function (group: string) {
    return derived(this, descriptors.groupCheck, { ...principalOf(this), group });
  }),
  celMethod('serviceAccount', t.authorizer, [CelScalar.STRING, CelScalar.STRING], t.authorizer, function (namespace: string, name: string) {
    if (!isDnsSubdomain(name)) throw celError('Invalid service account name');
    if (!isDnsLabel(namespace)) throw celError('Invalid service account namespace');
    return derived(this, descriptors.authorizer, { serviceAccountNamespace: namespace, serviceAccountName: name });
  }),
  celMethod('resource', t.groupCheck, [CelScalar.STRING], t.resourceCheck, function (resource: string) {
    if (resource.trim() === '') throw celError('resource must not be empty');
    return derived(this, descriptors.resourceCheck, { ...principalOf(this), group: stringOf(this, 'group'), resource });
  }),
  ...(['subresource', 'namespace', 'name'] as const).map((field) =>
    celMethod(field, t.resourceCheck, [CelScalar.STRING], t.resourceCheck, function (text: string) {
      return derived(this, descriptors.resourceCheck, { ...resourceFields(this), [field]: text });
    }),
  ),
  celMethod('check', t.pathCheck, [CelScalar.STRING], t.decision, function (verb: string) {
    const attrs = { verb, group: '', resource: '', subresource: '', namespace: '', name: '', path: stringOf(this, 'path') };
    return decide(this, attrs);
  }),
  celMethod('check', t.resourceCheck, [CelScalar.STRING], t.decision, function (verb: string) {
    const { group, resource, subresource, namespace, name } = resourceFields(this) as Record<string, string>;
    return decide(this, { verb, group: group ?? '', resource: resource ?? '', subresource: subresource ?? '', namespace: namespace ?? '', name: name ?? '' });
  }),
  celMethod('allowed', t.decision, [], CelScalar.BOOL, function () {
    return boolOf(this, 'allowed');
  }),
  celMethod('reason', t.decision, [], CelScalar.STRING, function () {
    return stringOf(this, 'reason');
  }),
  celMethod('errored', t.decision, [], CelScalar.BOOL, function () {
    return stringOf(this, 'error') !== '';
  }),
  celMethod('error', t.decision, [], CelScalar.STRING, function () {
    return stringOf(this, 'error');
  }),
];

function resourceFields(value: ReflectMessage): OpaqueFields {
  const fields: Record<string, string> = {};
  for (const name of ['serviceAccountNamespace', 'serviceAccountName', 'group', 'resource', 'subresource', 'namespace', 'name']) {
    fields[name] = stringOf(value, name);
  }
  return fields;
}
