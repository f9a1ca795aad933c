// kube-controller-manager's tokencleaner (pkg/controller/bootstrap/tokencleaner.go, 1.28): a
// bootstrap token Secret whose `expiration` has passed is deleted, with a precondition on its uid
// (a Secret recreated under the name is not touched); one that has not expired yet is looked at
// again at its expiry. orch cleans kube-system and orch-system. Off unless `--controllers` names it.
import { tokenExpiration, bootstrapTokenNamespaces, type BootstrapTokenSecret } from '../../authn/bootstrap/bootstrap-token.ts';
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { bootstrapTokenResyncMs } from './limits.ts';
import { coreStore, listTokenSecrets, runTokenLoop } from './token-loop.ts';

/** The controller's name, as kube-controller-manager's `--controllers` knows it. */
export const tokenCleanerName = 'tokencleaner';

/** The cleaner's tuning; tests inject the clock. */
export interface TokenCleanerOptions {
  /** Milliseconds since the epoch (default Date.now). */
  readonly clock?: () => number;
  /** The namespaces whose token Secrets are cleaned (default kube-system and orch-system). */
  readonly namespaces?: readonly string[];
  readonly resyncIntervalMs?: number;
}

async function deleteExpired(deps: ControllerDeps, secrets: GenericStore, secret: BootstrapTokenSecret): Promise<void> {
  try {
    await secrets.delete(secret.namespace, secret.name, secret.uid === '' ? {} : { preconditions: { uid: secret.uid } });
  } catch (err) {
    // Gone already, or another Secret under the name now (the uid precondition): nothing to do.
    if (!hasStatus(err, 404) && !hasStatus(err, 409)) deps.log(`${tokenCleanerName}: secret ${secret.namespace}/${secret.name} not deleted`, err);
  }
}

/** One pass: deletes the expired tokens; resolves to the time until the next one expires. */
async function clean(deps: ControllerDeps, secrets: GenericStore, namespaces: readonly string[], clock: () => number): Promise<number | undefined> {
  let nextMs: number | undefined;
  for (const secret of await listTokenSecrets(secrets, namespaces)) {
    const { expired, remainingMs } = tokenExpiration(secret, clock());
    if (expired) {
      if (secret.deletionTimestamp === undefined) await deleteExpired(deps, secrets, secret);
    } else if (remainingMs !== undefined) {
      nextMs = nextMs === undefined ? remainingMs : Math.min(nextMs, remainingMs);
    }
  }
  return nextMs;
}

/** The tokencleaner, acting as `deps` says (the replica gives it service account kube-system:token-cleaner). */
export function createTokenCleaner(deps: ControllerDeps, options: TokenCleanerOptions = {}): Controller {
  const clock = options.clock ?? Date.now;
  const namespaces = options.namespaces ?? bootstrapTokenNamespaces;
  return {
    name: tokenCleanerName,
    async run(signal) {
      const secrets = coreStore(deps, 'secrets');
      await runTokenLoop(deps, { name: tokenCleanerName, pass: () => clean(deps, secrets, namespaces, clock), resyncMs: options.resyncIntervalMs ?? bootstrapTokenResyncMs }, signal);
    },
  };
}
