// The shape both CustomResourceDefinition controllers share: a level-triggered loop over the CRD
// store, woken by its watch, each pass reading every definition.
import type { GenericStore } from '../../registry/generic/store.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { crdControllerBatchMs, crdControllerResyncMs } from '../limits.ts';
import { runWatchedLoop } from '../watched-loop.ts';

/** A controller named `name` running `pass` over the CRD store (nothing on a server without CRDs). */
export function crdController(deps: ControllerDeps, name: string, pass: (store: GenericStore, signal: AbortSignal) => Promise<boolean | void>, busyResyncMs?: number): Controller {
  return {
    name,
    async run(signal) {
      const served = deps.registry.find(`apiextensions.${deps.registry.apiDomain}`, 'v1', 'customresourcedefinitions');
      const store = served && deps.stores.get(served);
      if (store === undefined) return;
      await runWatchedLoop({
        watched: [{ store }],
        pass: (passSignal) => pass(store, passSignal),
        resyncMs: crdControllerResyncMs,
        ...(busyResyncMs !== undefined ? { busyResyncMs } : {}),
        batchMs: crdControllerBatchMs,
        failureMessage: `${name}: pass failed`,
        log: deps.log,
      }, signal);
    },
  };
}
