// The loop the three certificate controllers share (kube's CertificateController, a worker over
// CertificateSigningRequests): each pass handles every request; one that fails is logged and
// handled again on the next, sooner, pass. Requests that change wake the loop early.
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { runWatchedLoop } from '../watched-loop.ts';
import { csrStoreOf } from './csr-objects.ts';
import { csrBatchMs, csrBusyResyncMs } from './limits.ts';

/** What one certificate controller does. */
export interface CsrLoop {
  /** kube-controller-manager's name of the controller. */
  readonly name: string;
  /** Handles one request (writes through `store` itself); throws to be logged and retried. */
  handle(store: GenericStore, csr: KObject): Promise<void>;
  /** The wait between passes when nothing changes. */
  readonly resyncMs: number;
  /** Whether request changes wake the loop (the cleaner runs on its clock only). */
  readonly watch: boolean;
}

/**
 * One pass over every request. A failure is logged once per version of the request (`logged` holds
 * `name@resourceVersion`): it is retried every few seconds, and a request that cannot be handled
 * (a signer error) must not fill the log until someone changes or deletes it.
 */
async function pass(deps: ControllerDeps, loop: CsrLoop, store: GenericStore, logged: Set<string>, signal: AbortSignal): Promise<boolean> {
  let retry = false;
  const seen = new Set<string>();
  for (const csr of (await store.list(undefined, {})).items) {
    if (signal.aborted) break;
    const version = `${csr.metadata.name ?? ''}@${csr.metadata.resourceVersion ?? ''}`;
    seen.add(version);
    try {
      await loop.handle(store, csr);
    } catch (err) {
      retry = true;
      // A request changed or deleted meanwhile is looked at again on the pass its event wakes.
      if (hasStatus(err, 409) || hasStatus(err, 404) || logged.has(version)) continue;
      logged.add(version);
      deps.log(`${loop.name}: certificate signing request ${csr.metadata.name ?? ''} not handled`, err);
    }
  }
  for (const version of logged) if (!seen.has(version)) logged.delete(version);
  return retry;
}

/** The controller running `loop`; without a served CertificateSigningRequest kind it idles until stopped. */
export function csrController(deps: ControllerDeps, loop: CsrLoop): Controller {
  return {
    name: loop.name,
    async run(signal) {
      const store = csrStoreOf(deps);
      if (store === undefined) {
        deps.log(`${loop.name}: certificatesigningrequests are not served; the controller idles`);
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        return;
      }
      const logged = new Set<string>();
      await runWatchedLoop({
        watched: loop.watch ? [{ store }] : [],
        pass: (s) => pass(deps, loop, store, logged, s),
        resyncMs: loop.resyncMs,
        busyResyncMs: Math.min(csrBusyResyncMs, loop.resyncMs),
        batchMs: loop.watch ? csrBatchMs : 0,
        failureMessage: `${loop.name}: pass failed`,
        log: deps.log,
      }, signal);
    },
  };
}
