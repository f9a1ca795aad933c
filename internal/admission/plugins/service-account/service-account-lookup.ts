// Finding a pod's ServiceAccount as kube's plugin does: this replica's copy, else reads at the
// leader; the `default` account is created by a controller shortly after its namespace, so a
// pod created right after its namespace waits for it a little (a bounded number of tries).
import { notFound } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { ObjectReader } from '../../plugin.ts';

/** The account a pod gets when it names none. */
export const defaultServiceAccountName = 'default';
/** Reads at the leader for the default account (kube's 10), and for any other (1). */
export const defaultAccountAttemptsMax = 10;
export const otherAccountAttemptsMax = 1;

/** How the lookup waits between its reads. */
export interface LookupPacing {
  /** The pause between two reads (kube: a random 100 to 200 ms, drawn once per lookup). */
  readonly retryIntervalMs: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** kube's pacing. */
export const defaultLookupPacing: LookupPacing = {
  retryIntervalMs: () => 100 + Math.floor(Math.random() * 100),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const serviceAccountsResource = { group: '', resource: 'serviceaccounts' };

/**
 * The ServiceAccount `namespace/name`. Throws kube's NotFound (`serviceaccount "x" not found`,
 * singular as kube words it) when no read finds it, or the read's own error.
 */
export async function findServiceAccount(objects: ObjectReader, pacing: LookupPacing, namespace: string, name: string): Promise<KObject> {
  const local = await objects.get(serviceAccountsResource, namespace, name);
  if (local !== undefined) return local;
  const attempts = name === defaultServiceAccountName ? defaultAccountAttemptsMax : otherAccountAttemptsMax;
  const intervalMs = pacing.retryIntervalMs();
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt !== 0) await pacing.sleep(intervalMs);
    const live = await objects.get(serviceAccountsResource, namespace, name, { consistent: true });
    if (live !== undefined) return live;
  }
  throw notFound({ group: '', resource: 'serviceaccount' }, name);
}
