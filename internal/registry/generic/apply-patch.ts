// Server-side apply through the generic store: the patch layer computes the merged object and
// its managedFields; the store runs the usual update (or create) path over it.
import { apply, ApplyConflictError, PatchError } from '../../patch/index.ts';
import type { ApplyResult } from '../../patch/index.ts';
import { hasStatus, notFound, StatusError } from '../errors/status-error.ts';
import type { KObject } from '../schema/declaration.ts';
import { objectPatchSchema } from '../schema/patch-schema.ts';
import { checkSchema, objectSchema } from '../schema/schema-check.ts';
import { cloneObject } from './codec.ts';
import { resetFields } from './managed-fields.ts';
import { nowTimestamp } from './object-lifecycle.ts';
import type { GenericStore, WriteResult } from './store.ts';
import type { WriteAdmission } from './write-admission.ts';
import type { UserInfo } from '../../authn/user-info.ts';

/** One server-side apply request, its body already decoded and checked against the schema. */
export interface ApplyRequest {
  /** The applied configuration (metadata.name set to the request's name). */
  readonly applied: KObject;
  /** The `fieldManager` (required, non-empty). */
  readonly manager: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly subresource?: string;
  /** The request's user, for the hooks that authorize writes (WriteOptions.user). */
  readonly user?: UserInfo;
  /** Runs before an apply creates the object (the create right). */
  readonly beforeCreate: () => Promise<void>;
  /** The request's admission (WriteOptions.admission). */
  readonly admission?: WriteAdmission;
}

/** The StatusError answering a patch-layer error: 409 Conflict with one cause per field, or 400/422. */
export function patchErrorStatus(err: unknown): unknown {
  // Anything else is passed through unchanged.
  if (err instanceof ApplyConflictError) {
    const causes = err.causes().map((c) => ({ reason: c.type, message: c.message, field: c.field }));
    return new StatusError(409, 'Conflict', err.message, { causes });
  }
  if (err instanceof PatchError) return new StatusError(err.status, err.status === 400 ? 'BadRequest' : 'Invalid', err.message);
  return err;
}

/**
 * The merged object as a built-in kind's Go types hold it: the applied configuration is read
 * untyped, and kube-apiserver stores the merge's result typed (its quantities re-encoded, "0.5"
 * as "500m"), as checkSchema leaves a PUT's body.
 */
function typed(store: GenericStore, result: ApplyResult): ApplyResult {
  if (store.decl.custom !== true) checkSchema(result.object, objectSchema(store.decl), false, store.decl.kind, true);
  return result;
}

function runApply(store: GenericStore, live: KObject | null, req: ApplyRequest): ApplyResult {
  const ignored = resetFields(store.decl, req.subresource);
  try {
    return typed(store, apply({
      live,
      applied: cloneObject(req.applied),
      manager: req.manager,
      apiVersion: store.served.apiVersion,
      force: req.force,
      schema: objectPatchSchema(store.decl),
      now: nowTimestamp(),
      ...(req.subresource ? { subresource: req.subresource } : {}),
      ...(ignored ? { ignored } : {}),
    }));
  } catch (err) {
    throw patchErrorStatus(err);
  }
}

async function createByApply(store: GenericStore, namespace: string | undefined, req: ApplyRequest): Promise<WriteResult> {
  if (req.subresource) throw notFound(store.gr, req.applied.metadata.name ?? '');
  await req.beforeCreate();
  const result = runApply(store, null, req);
  const obj = result.object as KObject;
  return store.create(namespace, obj, { fieldManager: req.manager, dryRun: req.dryRun, appliedManagedFields: () => result.managedFields, ...(req.user ? { user: req.user } : {}), ...(req.admission ? { admission: req.admission } : {}) });
}

/**
 * Applies `req` to the object `name`: merged into the live object (retried on races, 409 on an
 * ownership conflict without force), or created when it does not exist.
 */
export async function serverSideApply(store: GenericStore, namespace: string | undefined, name: string, req: ApplyRequest): Promise<WriteResult> {
  let managedFields: readonly unknown[] = [];
  const update = () =>
    store.patch(
      namespace,
      name,
      (current) => {
        const result = runApply(store, current, req);
        managedFields = result.managedFields;
        return result.object as KObject;
      },
      {
        fieldManager: req.manager, dryRun: req.dryRun, appliedManagedFields: () => managedFields,
        ...(req.subresource ? { subresource: req.subresource } : {}), ...(req.user ? { user: req.user } : {}), ...(req.admission ? { admission: req.admission } : {}),
      },
    );
  try {
    return await update();
  } catch (err) {
    if (!hasStatus(err, 404)) throw err;
  }
  try {
    return await createByApply(store, namespace, req);
  } catch (err) {
    // Someone created it meanwhile: apply over theirs.
    if (err instanceof StatusError && err.code === 409 && err.reason === 'AlreadyExists') return update();
    throw err;
  }
}
