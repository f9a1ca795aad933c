// The enums of apps/v1 workloads as kube-apiserver 1.28 checks them (pkg/apis/apps/validation):
// a Deployment's strategy, a DaemonSet's and a StatefulSet's updateStrategy, a StatefulSet's
// podManagementPolicy and persistentVolumeClaimRetentionPolicy. kube reports a bad strategy type
// on the strategy struct itself, printed as Go's `%#v` prints the internal type.
import type { KObject } from '../schema/declaration.ts';
import { forbidden, invalidShown, invalidValue, notSupported, notSupportedShown, type FieldError } from '../schema/field-errors.ts';
import { field } from '../schema/printers.ts';

type Json = Record<string, unknown>;

const deploymentStrategies = ['Recreate', 'RollingUpdate'];
const daemonSetStrategies = ['RollingUpdate', 'OnDelete'];
const retentionPolicies = ['Retain', 'Delete'];

/**
 * A pointer field as `%#v` prints it. Go prints a set pointer's address, which differs on every
 * request; a fixed address stands in for it.
 */
function goPointer(type: string, value: unknown): string {
  return value === undefined || value === null ? `(*${type})(nil)` : `(*${type})(0xc000010000)`;
}

function goStrategy(type: string, rollingType: string, strategy: Json): string {
  return `apps.${type}{Type:${JSON.stringify(strategy.type ?? '')}, RollingUpdate:${goPointer(`apps.${rollingType}`, strategy.rollingUpdate)}}`;
}

function strategyAt(o: KObject, path: string): Json {
  const value = field(o, path);
  return typeof value === 'object' && value !== null ? (value as Json) : {};
}

/** ValidateDeploymentStrategy: `spec.strategy.type` is Recreate or RollingUpdate; only RollingUpdate takes `rollingUpdate`. */
export function validateDeploymentStrategy(o: KObject): FieldError[] {
  const strategy = strategyAt(o, 'spec.strategy');
  if (strategy.type === 'RollingUpdate') return [];
  if (strategy.type !== 'Recreate') return [notSupportedShown('spec.strategy', goStrategy('DeploymentStrategy', 'RollingUpdateDeployment', strategy), deploymentStrategies)];
  return strategy.rollingUpdate === undefined || strategy.rollingUpdate === null ? [] : [forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")];
}

/** ValidateDaemonSetUpdateStrategy: `spec.updateStrategy.type` is RollingUpdate or OnDelete. */
export function validateDaemonSetUpdateStrategy(o: KObject): FieldError[] {
  const strategy = strategyAt(o, 'spec.updateStrategy');
  if (strategy.type === 'RollingUpdate' || strategy.type === 'OnDelete') return [];
  return [notSupportedShown('spec.updateStrategy', goStrategy('DaemonSetUpdateStrategy', 'RollingUpdateDaemonSet', strategy), daemonSetStrategies)];
}

function validateStatefulSetUpdateStrategy(o: KObject): FieldError[] {
  const strategy = strategyAt(o, 'spec.updateStrategy');
  if (strategy.type === 'RollingUpdate') return [];
  if (strategy.type !== 'OnDelete') return [invalidShown('spec.updateStrategy', goStrategy('StatefulSetUpdateStrategy', 'RollingUpdateStatefulSetStrategy', strategy), "must be 'RollingUpdate' or 'OnDelete'")];
  const rolling = strategy.rollingUpdate;
  if (typeof rolling !== 'object' || rolling === null) return [];
  const r = rolling as Json;
  const shown = `apps.RollingUpdateStatefulSetStrategy{Partition:${Number(r.partition ?? 0)}, MaxUnavailable:${goPointer('intstr.IntOrString', r.maxUnavailable)}}`;
  return [invalidShown('spec.updateStrategy.rollingUpdate', shown, "only allowed for updateStrategy 'RollingUpdate'")];
}

/**
 * ValidateStatefulSetSpec's enums: podManagementPolicy (OrderedReady or Parallel), the update
 * strategy, and each persistentVolumeClaimRetentionPolicy field (Retain or Delete).
 */
export function validateStatefulSetPolicies(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  const policy = field(o, 'spec.podManagementPolicy');
  if (policy !== 'OrderedReady' && policy !== 'Parallel') errors.push(invalidValue('spec.podManagementPolicy', policy ?? '', "must be 'OrderedReady' or 'Parallel'"));
  errors.push(...validateStatefulSetUpdateStrategy(o));
  const retention = field(o, 'spec.persistentVolumeClaimRetentionPolicy');
  if (typeof retention === 'object' && retention !== null) {
    for (const when of ['whenDeleted', 'whenScaled']) {
      const value = (retention as Json)[when];
      if (!retentionPolicies.includes(value as string)) errors.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${when}`, value ?? '', retentionPolicies));
    }
  }
  return errors;
}
