import { StorageError } from '../../storage/storage.ts';
import type { KObject } from '../schema/declaration.ts';
import type { UserInfo } from '../../authn/user-info.ts';

/**
 * How a write ended: `applied`; `refused` (nothing was written: a lost race, a name taken, a
 * refusal before the store); `unknown` (the store could not say whether it applied it).
 */
export type WriteOutcome = 'applied' | 'refused' | 'unknown';

/**
 * Ends what a begin hook started, once its write's outcome is known: keeps or undoes side
 * effects (e.g. releases what an applied update dropped, or what a refused create claimed).
 * Called exactly once per begin; it never throws (it reports its own failures).
 */
export type FinishWrite = (outcome: WriteOutcome) => Promise<void>;

/**
 * Who asks for a write, for the hooks that decide on it (RBAC escalation prevention): `user` is the
 * request's user after impersonation, absent for the server's own writes (bootstrap, controllers),
 * which act with full authority as kube-apiserver's loopback client in system:masters does.
 */
export interface WriterInfo {
  readonly user?: UserInfo;
}

/**
 * A resource's side effects outside its own key, as kube-apiserver's store hooks (BeginCreate,
 * BeginUpdate, AfterDelete): e.g. Services claim cluster IPs and node ports. The generic store
 * calls the begin hooks after the strategy (defaults, validation) and before the write, dry runs
 * included; they may fill the object and throw a StatusError or StorageError to refuse it.
 */
export interface WriteHooks {
  beginCreate?(obj: KObject, dryRun: boolean, writer: WriterInfo): Promise<FinishWrite>;
  /** Main-resource updates only (a status write changes nothing a hook owns). */
  beginUpdate?(obj: KObject, old: KObject, dryRun: boolean, writer: WriterInfo): Promise<FinishWrite>;
  /** After the object left storage (delete, or an update removing its last finalizer); never on dry run. Never throws. */
  afterDelete?(obj: KObject): Promise<void>;
}

function outcomeOf(err: unknown): WriteOutcome {
  return err instanceof StorageError && err.code === 'Indeterminate' ? 'unknown' : 'refused';
}

/** Runs `write`, then `finish` with its outcome (the write's error, if any, is rethrown). */
export async function finishing<T>(finish: FinishWrite | undefined, write: () => Promise<T>): Promise<T> {
  if (finish === undefined) return write();
  let result: T;
  try {
    result = await write();
  } catch (err) {
    await finish(outcomeOf(err));
    throw err;
  }
  await finish('applied');
  return result;
}
