// An in-memory index of the RBAC objects, fed by their add/update/delete events, that finds the
// bindings of a user without scanning them all: subjects are indexed by the user name they stand
// for (User subjects, and ServiceAccount subjects by `system:serviceaccount:<ns>:<name>`) and by
// group name. Rule resolution then follows kube-apiserver 1.28's DefaultRuleResolver.VisitRulesFor:
// ClusterRoleBindings first, then the RoleBindings of the request's namespace.
import type { UserInfo } from '../../authn/user-info.ts';
import { goQuote } from '../go-format.ts';
import { rulesOf, type PolicyRule } from './policy-rule.ts';
import { bindingFromJson, serviceAccountUsername, subjectUsername, type Binding, type Subject } from './rbac-objects.ts';

/** A change to one RBAC object, as a watch delivers it; `kind` defaults to the object's own. */
export interface RbacEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly kind?: 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';
  readonly object: Record<string, unknown>;
}

/** Where a visited rule comes from: the binding and the subject of it that applies. */
export interface RuleSource {
  readonly binding: Binding;
  readonly subject: Subject;
}

/** Called for each rule (or resolution error) that applies; returns false to stop the walk. */
export type RuleVisitor = (source: RuleSource | null, rule: PolicyRule | null, error: Error | null) => boolean;

/** The bindings of one scope (the cluster, or one namespace), with their subject index. */
class BindingSet {
  readonly byName = new Map<string, Binding>();
  /** `u:<username>` or `g:<group>` -> the bindings with such a subject, by name. */
  readonly bySubject = new Map<string, Map<string, Binding>>();

  put(binding: Binding): void {
    this.remove(binding.name);
    this.byName.set(binding.name, binding);
    for (const key of subjectKeys(binding)) {
      let bindings = this.bySubject.get(key);
      if (bindings === undefined) this.bySubject.set(key, (bindings = new Map()));
      bindings.set(binding.name, binding);
    }
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (old === undefined) return;
    this.byName.delete(name);
    for (const key of subjectKeys(old)) {
      const bindings = this.bySubject.get(key);
      bindings?.delete(name);
      if (bindings?.size === 0) this.bySubject.delete(key);
    }
  }

  /**
   * The bindings that may apply to the user: those with a subject of its name or groups, each once.
   * Unordered on the hot path (kube's order is its informer's, unspecified); `sorted` for listings.
   */
  candidates(keys: readonly string[], sorted: boolean): Binding[] {
    const found: Binding[] = [];
    let seen: Set<string> | null = null;
    for (const key of keys) {
      const bindings = this.bySubject.get(key);
      if (bindings === undefined) continue;
      for (const b of bindings.values()) {
        if (found.length > 0) {
          seen ??= new Set(found.map((f) => f.name));
          if (seen.has(b.name)) continue;
          seen.add(b.name);
        }
        found.push(b);
      }
    }
    if (sorted) found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return found;
  }
}

function subjectKeys(binding: Binding): Set<string> {
  const keys = new Set<string>();
  for (const s of binding.subjects) {
    if (s.kind === 'Group') keys.add(`g:${s.name}`);
    const username = subjectUsername(s, binding.namespace);
    if (username !== null) keys.add(`u:${username}`);
  }
  return keys;
}

function userKeys(user: UserInfo): string[] {
  return [`u:${user.username}`, ...user.groups.map((g) => `g:${g}`)];
}

/** The first subject of the binding that applies to the user (kube's appliesTo), or null. */
export function applyingSubject(user: UserInfo, binding: Binding): Subject | null {
  for (const s of binding.subjects) {
    if (s.kind === 'Group') {
      if (user.groups.includes(s.name)) return s;
      continue;
    }
    if (s.kind === 'ServiceAccount') {
      const namespace = s.namespace !== '' ? s.namespace : binding.namespace;
      if (namespace !== '' && serviceAccountUsername(namespace, s.name) === user.username) return s;
      continue;
    }
    if (s.kind === 'User' && s.name === user.username) return s;
  }
  return null;
}

/** Sizes of the index, for tests and metrics. */
export interface RbacIndexStats {
  readonly roles: number;
  readonly clusterRoles: number;
  readonly roleBindings: number;
  readonly clusterRoleBindings: number;
  /** Bindings examined by lookups since the index was made: grows with the bindings that name the user, not with all bindings. */
  readonly bindingsExamined: number;
}

/**
 * The RBAC objects of the cluster, kept current by `apply`. Synchronous and in memory: an
 * authorization looks up a few map entries per group of the user.
 */
export class RbacIndex {
  private readonly roles = new Map<string, Map<string, PolicyRule[]>>();
  private readonly clusterRoles = new Map<string, PolicyRule[]>();
  private readonly clusterRoleBindings = new BindingSet();
  private readonly roleBindings = new Map<string, BindingSet>();
  private examined = 0;
  private changes = 0;

  /** `rbacGroup` is the served RBAC group (`rbac.authorization.k8s.io`), used in "not found" errors. */
  constructor(private readonly rbacGroup = 'rbac.authorization.k8s.io') {}

  /** Counts the changes applied (and clears): equal values mean every lookup answers as before. */
  get version(): number {
    return this.changes;
  }

  /** Applies one event. Unknown kinds are refused loudly: feeding the index the wrong watch is a bug. */
  apply(event: RbacEvent): void {
    this.changes++;
    const kind = event.kind ?? event.object.kind;
    const metadata = (event.object.metadata ?? {}) as { name?: unknown; namespace?: unknown };
    const name = typeof metadata.name === 'string' ? metadata.name : '';
    const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
    const deleted = event.type === 'DELETED';
    // Stored objects always have a name: a nameless one means the wrong stream is being fed.
    if (name === '') throw new Error(`RbacIndex.apply: ${String(kind)} without metadata.name`);
    switch (kind) {
      case 'ClusterRole':
        if (deleted) this.clusterRoles.delete(name);
        else this.clusterRoles.set(name, rulesOf(event.object));
        return;
      case 'Role': {
        let inNamespace = this.roles.get(namespace);
        if (inNamespace === undefined) this.roles.set(namespace, (inNamespace = new Map()));
        if (deleted) inNamespace.delete(name);
        else inNamespace.set(name, rulesOf(event.object));
        if (inNamespace.size === 0) this.roles.delete(namespace);
        return;
      }
      case 'ClusterRoleBinding':
        if (deleted) this.clusterRoleBindings.remove(name);
        else this.clusterRoleBindings.put({ ...bindingFromJson(event.object), namespace: '' });
        return;
      case 'RoleBinding': {
        let set = this.roleBindings.get(namespace);
        if (set === undefined) this.roleBindings.set(namespace, (set = new BindingSet()));
        if (deleted) set.remove(name);
        else set.put(bindingFromJson(event.object));
        if (set.byName.size === 0) this.roleBindings.delete(namespace);
        return;
      }
      default:
        throw new Error(`RbacIndex.apply: not an RBAC kind: ${String(kind)}`);
    }
  }

  /** Forgets everything (before a fresh list after the watch was lost). */
  clear(): void {
    this.changes++;
    this.roles.clear();
    this.clusterRoles.clear();
    this.roleBindings.clear();
    for (const name of [...this.clusterRoleBindings.byName.keys()]) this.clusterRoleBindings.remove(name);
  }

  /** Sizes of the index. */
  stats(): RbacIndexStats {
    let roles = 0;
    for (const m of this.roles.values()) roles += m.size;
    let roleBindings = 0;
    for (const s of this.roleBindings.values()) roleBindings += s.byName.size;
    return { roles, clusterRoles: this.clusterRoles.size, roleBindings, clusterRoleBindings: this.clusterRoleBindings.byName.size, bindingsExamined: this.examined };
  }

  /** The rules of a ClusterRole, or undefined when there is none of that name. */
  clusterRoleRules(name: string): readonly PolicyRule[] | undefined {
    return this.clusterRoles.get(name);
  }

  /**
   * The rules a role reference grants in `namespace` (kube's GetRoleReferenceRules); throws kube's
   * NotFound wording (`clusterrole.rbac.authorization.k8s.io "x" not found`) for a missing role.
   */
  roleReferenceRules(ref: { kind: string; name: string }, namespace: string, wording: 'lister' | 'registry' = 'lister'): readonly PolicyRule[] {
    // The authorizer reads informer listers (`clusterrole.<group>`), the RBAC storages read the registry (`clusterroles.<group>`).
    const plural = wording === 'registry' ? 's' : '';
    if (ref.kind === 'ClusterRole') {
      const rules = this.clusterRoles.get(ref.name);
      if (rules === undefined) throw new Error(`clusterrole${plural}.${this.rbacGroup} ${goQuote(ref.name)} not found`);
      return rules;
    }
    if (ref.kind === 'Role') {
      const rules = this.roles.get(namespace)?.get(ref.name);
      if (rules === undefined) throw new Error(`role${plural}.${this.rbacGroup} ${goQuote(ref.name)} not found`);
      return rules;
    }
    throw new Error(`unsupported role reference kind: ${goQuote(ref.kind)}`);
  }

  /**
   * Walks the rules that apply to `user` in `namespace` ('' for cluster-wide only): those of the
   * ClusterRoleBindings naming it, then those of its RoleBindings in the namespace (each binding in
   * name order when `sorted`). A binding whose role is missing gives the visitor an error instead of rules.
   */
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor, options: { sorted?: boolean } = {}): void {
    const keys = userKeys(user);
    const sorted = options.sorted === true;
    if (!this.visitBindings(this.clusterRoleBindings.candidates(keys, sorted), user, '', visitor)) return;
    if (namespace === '') return;
    const set = this.roleBindings.get(namespace);
    if (set !== undefined) this.visitBindings(set.candidates(keys, sorted), user, namespace, visitor);
  }

  private visitBindings(bindings: readonly Binding[], user: UserInfo, namespace: string, visitor: RuleVisitor): boolean {
    for (const binding of bindings) {
      this.examined++;
      const subject = applyingSubject(user, binding);
      if (subject === null) continue;
      let rules: readonly PolicyRule[];
      try {
        rules = this.roleReferenceRules(binding.roleRef, namespace);
      } catch (e) {
        if (!visitor(null, null, e as Error)) return false;
        continue;
      }
      const source = { binding, subject };
      for (const rule of rules) if (!visitor(source, rule, null)) return false;
    }
    return true;
  }

  /** Every rule that applies to the user in the namespace, and the errors met (kube's RulesFor). */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule !== null) rules.push(rule);
      if (error !== null) errors.push(error);
      return true;
    }, { sorted: true });
    return { rules, errors };
  }
}
