// Controllers over real stores on in-memory local storage, for the controllers' unit tests: every
// built-in kind served, the controllers' log lines kept for the test to check, and every run
// stopped and the storage closed when the test ends.
import type { TestContext } from 'node:test';
import type { Controller, ControllerDeps } from '../../../internal/controllers/controller.ts';
import { hasStatus } from '../../../internal/registry/errors/status-error.ts';
import type { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';

/** The harness a test drives controllers with. */
export interface ControllerHarness {
  readonly deps: ControllerDeps;
  /** What the controllers logged: `message` or `message: error`. */
  readonly logs: string[];
  /** Runs `controllers` until the test ends. */
  run(...controllers: Controller[]): void;
}

/** Opens the harness; `deps` adds to the controllers' dependencies (an authorizer). */
export async function controllerHarness(t: TestContext, deps: Partial<Pick<ControllerDeps, 'authorizer'>> = {}): Promise<ControllerHarness> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map(registry.resources.map((r) => [r, storeFor(storage, r)] as const));
  const logs: string[] = [];
  const abort = new AbortController();
  const runs: Promise<void>[] = [];
  t.after(async () => {
    abort.abort();
    await Promise.all(runs);
    await storage.close();
  });
  return {
    deps: { registry, stores, log: (message, err) => logs.push(`${message}${err instanceof Error ? `: ${err.message}` : ''}`), ...deps },
    logs,
    run(...controllers) {
      for (const controller of controllers) runs.push(controller.run(abort.signal));
    },
  };
}

/** The object, or undefined when `get` answers 404. */
export async function getOrUndefined(store: GenericStore, namespace: string | undefined, name: string): Promise<KObject | undefined> {
  try {
    return await store.get(namespace, name);
  } catch (err) {
    if (hasStatus(err, 404)) return undefined;
    throw err;
  }
}
