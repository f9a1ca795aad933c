// The FlowSchema status kube-apiserver's APF config controller writes (apf_controller.go): each
// schema's `Dangling` condition says whether the PriorityLevelConfiguration it names exists. orch
// writes it from the leader only, as part of the API server (its loopback authority), with the
// same reasons and messages; a condition already as wanted is left alone.
import { hasStatus } from '../registry/errors/status-error.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { KObject } from '../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from './controller.ts';
import { flowSchemaStatusBatchMs, flowSchemaStatusResyncMs } from './limits.ts';
import { runWatchedLoop } from './watched-loop.ts';

/** The controller's name (logs, metrics). */
export const flowSchemaStatusName = 'priority-and-fairness-status';

/** The field manager kube's APF config controller writes status with. */
const manager = 'api-priority-and-fairness-config-consumer-v1';

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

function storeOf(deps: ControllerDeps, plural: string): GenericStore {
  const served = deps.registry.find(`flowcontrol.apiserver.${deps.registry.apiDomain}`, 'v1beta3', plural);
  const store = served && deps.stores.get(served);
  if (store === undefined) throw new Error(`assert: no ${plural} store`);
  return store;
}

/** The Dangling condition a schema should carry, given whether its level exists. */
export function danglingCondition(levelName: string, dangling: boolean): Omit<Condition, 'lastTransitionTime'> {
  return dangling
    ? { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object` }
    : { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists` };
}

/** The schema with its Dangling condition as wanted, or null when it already is. */
export function withDanglingCondition(schema: KObject, levels: ReadonlySet<string>, now: Date): KObject | null {
  const spec = (schema['spec'] ?? {}) as { priorityLevelConfiguration?: { name?: string } };
  const levelName = spec.priorityLevelConfiguration?.name ?? '';
  const wanted = danglingCondition(levelName, !levels.has(levelName));
  const status = (schema['status'] ?? {}) as { conditions?: Condition[] };
  const conditions = status.conditions ?? [];
  const current = conditions.find((c) => c.type === 'Dangling');
  if (current !== undefined && current.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message) return null;
  // The transition time moves only when the status does, as kube's SetFlowSchemaCondition.
  const lastTransitionTime = current !== undefined && current.status === wanted.status && current.lastTransitionTime !== undefined ? current.lastTransitionTime : now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const next = [...conditions.filter((c) => c.type !== 'Dangling'), { ...wanted, lastTransitionTime }];
  return { ...schema, status: { ...status, conditions: next } };
}

async function pass(deps: ControllerDeps, schemas: GenericStore, levels: GenericStore, signal: AbortSignal): Promise<void> {
  const levelNames = new Set((await levels.list(undefined, {})).items.map((l) => l.metadata.name ?? ''));
  for (const schema of (await schemas.list(undefined, {})).items) {
    if (signal.aborted) return;
    const next = withDanglingCondition(schema, levelNames, new Date());
    if (next === null) continue;
    try {
      await schemas.update(undefined, schema.metadata.name ?? '', next, { fieldManager: manager, subresource: 'status' });
    } catch (err) {
      // A schema changed or deleted meanwhile is looked at again on the pass its event wakes.
      if (!hasStatus(err, 409) && !hasStatus(err, 404)) deps.log(`flowschema status: ${schema.metadata.name ?? ''} not updated`, err);
    }
  }
}

/** Keeps every FlowSchema's Dangling condition true to whether its priority level exists. */
export function createFlowSchemaStatusController(deps: ControllerDeps): Controller {
  return {
    name: flowSchemaStatusName,
    async run(signal) {
      const schemas = storeOf(deps, 'flowschemas');
      const levels = storeOf(deps, 'prioritylevelconfigurations');
      await runWatchedLoop({
        watched: [{ store: schemas }, { store: levels }],
        pass: (passSignal) => pass(deps, schemas, levels, passSignal),
        resyncMs: flowSchemaStatusResyncMs,
        batchMs: flowSchemaStatusBatchMs,
        failureMessage: 'flowschema status: pass failed',
        log: deps.log,
      }, signal);
    },
  };
}
