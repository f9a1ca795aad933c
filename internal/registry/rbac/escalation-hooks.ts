// Escalation prevention on the RBAC kinds' writes, as kube-apiserver 1.28's policy-based storages
// (pkg/registry/rbac/*/policybased) wrap the generic store: the store's begin hooks run after
// defaults and validation, before the write (dry runs included), on create, update, patch and
// apply alike, and refuse with the 403 of authz/rbac/escalation.ts.
import { checkBindingWrite, checkRoleWrite } from '../../authz/rbac/escalation.ts';
import type { StoreAuthorization } from '../authorization/store-authorization.ts';
import type { FinishWrite, WriteHooks, WriterInfo } from '../generic/write-hooks.ts';
import type { KObject } from '../schema/declaration.ts';

// Nothing to keep or undo: the check has no side effect.
const nothingToFinish: FinishWrite = () => Promise.resolve();

type Check = (obj: KObject, old: KObject | undefined, writer: WriterInfo) => Promise<void>;

function hooksOf(check: Check): WriteHooks {
  return {
    async beginCreate(obj, _dryRun, writer) {
      await check(obj, undefined, writer);
      return nothingToFinish;
    },
    async beginUpdate(obj, old, _dryRun, writer) {
      await check(obj, old, writer);
      return nothingToFinish;
    },
  };
}

/**
 * The hooks of Roles or ClusterRoles: a user may write only rules they hold, unless they may
 * `escalate`. Writes without a user are the server's own (bootstrap policy, aggregation) and pass.
 */
export function roleEscalationHooks(kind: 'Role' | 'ClusterRole', authorization: StoreAuthorization): WriteHooks {
  return hooksOf(async (obj, old, writer) => {
    if (writer.user === undefined) return;
    const refusal = await checkRoleWrite(authorization, {
      user: writer.user, kind, namespace: obj.metadata.namespace ?? '',
      // kube matches `escalate` resourceNames against the request's name, which a create has not.
      requestName: old === undefined ? '' : (obj.metadata.name ?? ''),
      object: obj, ...(old === undefined ? {} : { old }),
    });
    if (refusal !== null) throw refusal;
  });
}

/** The hooks of RoleBindings or ClusterRoleBindings: a user may bind only a role whose rules they hold, unless they may `bind` it. */
export function bindingEscalationHooks(kind: 'RoleBinding' | 'ClusterRoleBinding', authorization: StoreAuthorization): WriteHooks {
  return hooksOf(async (obj, old, writer) => {
    if (writer.user === undefined) return;
    const refusal = await checkBindingWrite(authorization, { user: writer.user, kind, namespace: obj.metadata.namespace ?? '', object: obj, ...(old === undefined ? {} : { old }) });
    if (refusal !== null) throw refusal;
  });
}
