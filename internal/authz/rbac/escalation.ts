// Escalation prevention, as kube-apiserver 1.28's RBAC policy-based storages
// (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased, escalation_check.go
// and validation.ConfirmNoEscalation): a user may write a role only with rules they hold, unless
// they may `escalate` roles; may bind a role only if they hold its rules, unless they may `bind` it.
// system:masters members skip every check.
import type { UserInfo } from '../../authn/user-info.ts';
import { systemMasters } from '../../authn/user-info.ts';
import { badRequest, type StatusError } from '../../registry/errors/status-error.ts';
import type { Authorizer } from '../authorizer.ts';
import { compactRules, compactString, covers } from './covers.ts';
import { newForbidden } from '../forbidden.ts';
import { goQuote, goQuoteList } from '../go-format.ts';
import { escalationSubrulesMax } from '../limits.ts';
import { policyRule, rulesOf, type PolicyRule } from './policy-rule.ts';
import type { RbacIndex } from './rbac-index.ts';
import { resourceAttributes } from '../request-attributes.ts';
import { onlyGarbageCollectionFieldsChanged, semanticEqual } from './semantic-equal.ts';

/** What the checks need: the full authorizer chain (for `escalate` / `bind`) and the RBAC index (the rules a user holds). */
export interface EscalationDeps {
  readonly authorizer: Authorizer;
  readonly index: RbacIndex;
  /** The served RBAC group (`rbac.authorization.k8s.io`). */
  readonly rbacGroup: string;
}

type KObject = Record<string, unknown>;

/** cluster-admin's rules: what setting an aggregationRule requires, since it can gather anything. */
const fullAuthority: readonly PolicyRule[] = [policyRule({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }), policyRule({ verbs: ['*'], nonResourceURLs: ['*'] })];

function nameOf(o: KObject): string {
  const name = (o.metadata as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : '';
}

function breakdownSize(rules: readonly PolicyRule[]): number {
  let n = 0;
  for (const r of rules) n += r.apiGroups.length * r.resources.length * r.verbs.length * Math.max(1, r.resourceNames.length) + r.nonResourceURLs.length * r.verbs.length;
  return n;
}

/**
 * null when `user` holds every rule in `rules` in `namespace` ('' for cluster-wide bindings only);
 * otherwise kube's message naming the missing rules (compacted, sorted, one per line).
 */
export function escalationMessage(index: RbacIndex, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | null {
  const held = index.rulesFor(user, namespace);
  const intro = `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n`;
  if (breakdownSize(rules) > escalationSubrulesMax) return `${intro}(more than ${escalationSubrulesMax} rule combinations to compare)`;
  const { covered, missing } = covers(held.rules, rules);
  if (covered) return null;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let message = intro + lines.join('\n');
  // Go prints a []error as `[a b]`.
  if (held.errors.length > 0) message += `; resolution errors: [${held.errors.map((e) => e.message).join(' ')}]`;
  return message;
}

function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes(systemMasters);
}

/** The role write a registry strategy asks about. */
export interface RoleWrite {
  readonly user: UserInfo;
  readonly kind: 'Role' | 'ClusterRole';
  /** The request's namespace ('' for ClusterRoles). */
  readonly namespace: string;
  /** The name in the request path ('' on create), which an `escalate` rule's resourceNames match. */
  readonly requestName: string;
  readonly object: KObject;
  /** The stored object on update; absent on create. */
  readonly old?: KObject;
}

/**
 * Allows a Role or ClusterRole create/update, or returns the 403 kube answers
 * (`roles.rbac.authorization.k8s.io "x" is forbidden: user "u" (groups=[...]) is attempting to grant ...`).
 */
export async function checkRoleWrite(deps: EscalationDeps, write: RoleWrite): Promise<StatusError | null> {
  if (isPrivileged(write.user)) return null;
  const resource = write.kind === 'Role' ? 'roles' : 'clusterroles';
  const escalate = resourceAttributes(write.user, { verb: 'escalate', apiGroup: deps.rbacGroup, apiVersion: 'v1', resource, namespace: write.namespace, name: write.requestName });
  if ((await deps.authorizer.authorize(escalate)).decision === 'allow') return null;
  if (write.old !== undefined && onlyGarbageCollectionFieldsChanged(write.object, write.old)) return null;
  const forbidden = (why: string): StatusError => newForbidden({ group: deps.rbacGroup, resource, name: nameOf(write.object) }, why);
  const missing = escalationMessage(deps.index, write.user, write.namespace, rulesOf(write.object));
  if (missing !== null) return forbidden(missing);
  if (write.kind === 'ClusterRole' && aggregationRuleNeedsFullAuthority(write.object, write.old)) {
    if (escalationMessage(deps.index, write.user, '', fullAuthority) !== null) return forbidden('must have cluster-admin privileges to use the aggregationRule');
  }
  return null;
}

// Setting or changing an aggregationRule needs full authority; keeping an unchanged one does not.
function aggregationRuleNeedsFullAuthority(object: KObject, old: KObject | undefined): boolean {
  const rule = object.aggregationRule;
  if (rule === undefined || rule === null) return false;
  // Compared as kube's equality.Semantic does, not as text: a client may send the keys in another order.
  return old === undefined || !semanticEqual(rule, old.aggregationRule ?? null);
}

/** The binding write a registry strategy asks about. */
export interface BindingWrite {
  readonly user: UserInfo;
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  /** The request's namespace ('' for ClusterRoleBindings). */
  readonly namespace: string;
  readonly object: KObject;
  readonly old?: KObject;
}

/**
 * Allows a RoleBinding or ClusterRoleBinding create/update when the user may `bind` the referenced
 * role (resourceNames honoured) or holds all its rules; the 403 otherwise.
 */
export async function checkBindingWrite(deps: EscalationDeps, write: BindingWrite): Promise<StatusError | null> {
  if (isPrivileged(write.user)) return null;
  if (write.kind === 'RoleBinding' && write.namespace === '') return badRequest('namespace is required');
  if (write.old !== undefined && onlyGarbageCollectionFieldsChanged(write.object, write.old)) return null;
  const resource = write.kind === 'RoleBinding' ? 'rolebindings' : 'clusterrolebindings';
  const forbidden = (why: string): StatusError => newForbidden({ group: deps.rbacGroup, resource, name: nameOf(write.object) }, why);
  const ref = (write.object.roleRef ?? {}) as { apiGroup?: unknown; kind?: unknown; name?: unknown };
  const refKind = typeof ref.kind === 'string' ? ref.kind : '';
  const refName = typeof ref.name === 'string' ? ref.name : '';
  if (refKind === 'ClusterRole' || refKind === 'Role') {
    const bind = resourceAttributes(write.user, { verb: 'bind', apiGroup: typeof ref.apiGroup === 'string' ? ref.apiGroup : '', resource: refKind === 'Role' ? 'roles' : 'clusterroles', namespace: write.namespace, name: refName });
    if ((await deps.authorizer.authorize(bind)).decision === 'allow') return null;
  }
  let rules: readonly PolicyRule[];
  try {
    rules = deps.index.roleReferenceRules({ kind: refKind, name: refName }, write.namespace, 'registry');
  } catch (e) {
    return forbidden((e as Error).message);
  }
  const missing = escalationMessage(deps.index, write.user, write.namespace, rules);
  return missing === null ? null : forbidden(missing);
}
