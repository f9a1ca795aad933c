import type { Controller, ControllerDeps } from './controller.ts';
import { createDisruptionController } from './disruption/disruption-controller.ts';
import { createGarbageCollector } from './garbage-collector/garbage-collector.ts';
import { createNamespaceController } from './namespace-controller.ts';
import { createServiceAllocationRepair } from './service-allocation-repair.ts';

/** Every controller a replica runs while it leads: the one list to add a controller to. */
export function createControllers(deps: ControllerDeps): Controller[] {
  return [createNamespaceController(deps), createGarbageCollector(deps), createServiceAllocationRepair(deps), createDisruptionController(deps)];
}
