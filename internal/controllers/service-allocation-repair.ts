import { AllocationRepair } from '../registry/core/service/allocation-repair.ts';
import type { Controller, ControllerDeps } from './controller.ts';
import { serviceAllocationRepairIntervalMs } from './limits.ts';

/** The controller's name, as logs and metrics show it. */
export const serviceAllocationRepairName = 'service-allocation-repair';

/** Options of the repair controller (tests shorten the interval). */
export interface ServiceAllocationRepairOptions {
  readonly intervalMs?: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs the Service allocation repair (registry/core/service/allocation-repair.ts) every
 * interval while this replica leads: it frees cluster IPs and node ports no Service holds (left
 * by a crash or a store failure between an allocation and its Service write or after a delete)
 * and claims those a Service holds without a key.
 */
export function createServiceAllocationRepair(deps: ControllerDeps, options: ServiceAllocationRepairOptions = {}): Controller {
  const intervalMs = options.intervalMs ?? serviceAllocationRepairIntervalMs;
  return {
    name: serviceAllocationRepairName,
    async run(signal) {
      const served = deps.registry.find('', 'v1', 'services');
      const store = served && deps.stores.get(served);
      const repair = store && new AllocationRepair(store.storage, deps.log);
      while (!signal.aborted) {
        try {
          await repair?.pass();
        } catch (err) {
          if (!signal.aborted) deps.log('service allocation repair: pass failed', err);
        }
        await sleep(intervalMs, signal);
      }
    },
  };
}
