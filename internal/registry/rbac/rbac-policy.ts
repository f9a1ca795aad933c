// A replica's RBAC at start: the bootstrap policy reconciled (kube's rbac/bootstrap-roles post-start
// hook), then this replica's index fed from the store. The informer starts after the first round
// of the policy, so that its first list already holds the default roles and bindings.
import type { RbacIndex } from '../../authz/rbac/rbac-index.ts';
import type { GenericStore } from '../generic/store.ts';
import type { ServedResource, ServedResources } from '../served-resource.ts';
import { reconcileBootstrapPolicy } from './bootstrap-policy-reconcile.ts';
import { bootstrapPolicyRetryMs, bootstrapPolicyRoundsMax } from './limits.ts';
import { RbacInformer } from './rbac-informer.ts';
import { rbacStoresOf } from './rbac-stores.ts';

/** The RBAC start of one replica. */
export interface RbacPolicy {
  readonly informer: RbacInformer;
  /** Whether the bootstrap policy has been reconciled (kube's poststarthook/rbac/bootstrap-roles). */
  bootstrapped(): boolean;
  /** Settles once the policy is in and the index synced, or once either gave up (never rejects). */
  readonly ready: Promise<void>;
  /** Stops the informer and the policy retries. */
  stop(): Promise<void>;
}

/** What the start needs: the server's registry and stores, this replica's index. */
export interface RbacPolicyDeps {
  readonly registry: ServedResources;
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
  readonly index: RbacIndex;
  readonly stopped: () => boolean;
  readonly log: (message: string, err?: unknown) => void;
}

/** Starts the bootstrap policy (retried in rounds while the store is not ready) and the informer. */
export function startRbacPolicy(deps: RbacPolicyDeps): RbacPolicy {
  const rbac = rbacStoresOf(deps.registry, deps.stores);
  const nsServed = deps.registry.find('', 'v1', 'namespaces');
  const namespaces = nsServed && deps.stores.get(nsServed);
  if (rbac === undefined || namespaces === undefined) throw new Error('assert: a server without the RBAC kinds or namespaces cannot authorize');
  const informer = new RbacInformer(rbac, deps.index, deps.log);
  let done = false;
  let stopping = false;
  const stopped = (): boolean => stopping || deps.stopped();
  const policyDone = (async () => {
    for (let round = 1; !stopped(); round++) {
      try {
        await reconcileBootstrapPolicy({ ...rbac, namespaces }, deps.registry.apiDomain);
        done = true;
        return;
      } catch (err) {
        // The informer starts anyway: RBAC objects already stored still grant what they grant.
        informer.start();
        if (round >= bootstrapPolicyRoundsMax) {
          deps.log('rbac: could not reconcile the bootstrap policy', err);
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, bootstrapPolicyRetryMs));
    }
  })();
  const ready = policyDone.then(async () => {
    informer.start();
    await informer.waitSynced(bootstrapPolicyRetryMs * bootstrapPolicyRoundsMax);
  });
  return {
    informer,
    bootstrapped: () => done,
    ready,
    async stop() {
      stopping = true;
      await informer.stop();
    },
  };
}
