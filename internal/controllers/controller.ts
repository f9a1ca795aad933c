import type { Auditor } from '../audit/auditor.ts';
import type { Authorizer } from '../authz/authorizer.ts';
import type { ControllerAction } from './controller-identity.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';

/**
 * A control loop. The controller manager runs every controller on the Raft leader only: `run` is
 * called when this replica becomes leader and must return soon after `signal` aborts (leadership
 * lost or the replica stopping). Work must be idempotent and level-triggered: a new leader starts
 * from what the store holds, not from what the previous leader remembered.
 */
export interface Controller {
  readonly name: string;
  run(signal: AbortSignal): Promise<void>;
}

/** What controllers act through: the same generic stores the API serves (no HTTP in between). */
export interface ControllerDeps {
  readonly registry: ResourceRegistry;
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
  readonly log: (message: string, err?: unknown) => void;
  /**
   * The authorizer controllers' actions are checked by, each controller as its own service
   * account (controller-identity.ts). Absent: controllers act with the server's full authority.
   */
  readonly authorizer?: Authorizer;
  /**
   * The API server's audit: every read and write controllers make through their stores is audited
   * as their HTTP request would be. Absent: no audit (the stores are not wrapped for it).
   */
  readonly audit?: Auditor;
  /** Hears every write a controller acting as its own service account made (the log's controller actions). */
  readonly logAction?: (controller: string, action: ControllerAction) => void;
}
