// What a pod spec tells the scheduler, as ValidatePodSpec (pkg/apis/core/validation, 1.28)
// checks it: tolerations, node affinity's selector requirements, topology spread constraints,
// scheduling gates and the preemption policy. Field paths and messages are kube-apiserver's.
import { duplicate, forbidden, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { labelValue, qualifiedName } from '../schema/name-validation.ts';

type Json = Record<string, unknown>;

const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v !== null ? (v as Json) : {})) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const notPositive = 'must be greater than zero';

/** Go's %#v of a core.Toleration, as the Exists-with-value error shows it. */
function shownToleration(t: Json): string {
  const seconds = t.tolerationSeconds === undefined || t.tolerationSeconds === null ? '(*int64)(nil)' : `(*int64)(${String(t.tolerationSeconds)})`;
  return `core.Toleration{Key:${JSON.stringify(text(t.key))}, Operator:${JSON.stringify(text(t.operator))}, Value:${JSON.stringify(text(t.value))}, Effect:${JSON.stringify(text(t.effect))}, TolerationSeconds:${seconds}}`;
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  return objects(tolerations).flatMap((t, i) => {
    const at = `${path}[${i}]`;
    const [key, operator, value, effect] = [text(t.key), text(t.operator), text(t.value), text(t.effect)];
    const errors = key === '' ? [] : qualifiedName(key).map((p) => invalidValue(`${at}.key`, key, p));
    if (key === '' && operator !== 'Exists') errors.push(invalidValue(`${at}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') errors.push(invalidValue(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    if (operator === 'Equal' || operator === '') {
      const problems = labelValue(value);
      if (problems.length > 0) errors.push(invalidValue(`${at}.operator`, value, problems.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') errors.push(invalidShown(`${at}.operator`, shownToleration(t), "value must be empty when `operator` is 'Exists'"));
    } else errors.push(notSupported(`${at}.operator`, operator, ['Equal', 'Exists']));
    if (effect !== '' && !taintEffects.includes(effect)) errors.push(notSupported(`${at}.effect`, effect, taintEffects));
    return errors;
  });
}

/** ValidateNodeSelectorRequirement of each match expression at `path`. */
function validateRequirements(expressions: unknown, path: string): FieldError[] {
  return objects(expressions).flatMap((rq, i) => {
    const at = `${path}[${i}]`;
    const values = Array.isArray(rq.values) ? rq.values.length : 0;
    const errors: FieldError[] = [];
    const operator = rq.operator;
    if (operator === 'In' || operator === 'NotIn') {
      if (values === 0) errors.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values > 0) errors.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else if (operator === 'Gt' || operator === 'Lt') {
      if (values !== 1) errors.push(required(`${at}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
    } else errors.push(invalidValue(`${at}.operator`, operator ?? '', 'not a valid selector operator'));
    return [...errors, ...qualifiedName(text(rq.key)).map((p) => invalidValue(`${at}.key`, text(rq.key), p))];
  });
}

/** The node affinity's required terms and preferred preferences (validateNodeAffinity). */
export function validateNodeAffinity(affinity: unknown, path: string): FieldError[] {
  const nodeAffinity = typeof affinity === 'object' && affinity !== null ? (affinity as Json).nodeAffinity : undefined;
  if (typeof nodeAffinity !== 'object' || nodeAffinity === null) return [];
  const at = `${path}.nodeAffinity`;
  const errors: FieldError[] = [];
  const requiredTerms = (nodeAffinity as Json).requiredDuringSchedulingIgnoredDuringExecution;
  if (typeof requiredTerms === 'object' && requiredTerms !== null) {
    const termsPath = `${at}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    const terms = objects((requiredTerms as Json).nodeSelectorTerms);
    if (terms.length === 0) errors.push(required(termsPath, 'must have at least one node selector term'));
    terms.forEach((term, i) => errors.push(...validateRequirements(term.matchExpressions, `${termsPath}[${i}].matchExpressions`)));
  }
  objects((nodeAffinity as Json).preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
    const termPath = `${at}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const weight = term.weight;
    if (!(typeof weight === 'number' && weight >= 1 && weight <= 100)) errors.push(invalidValue(`${termPath}.weight`, weight ?? 0, 'must be in the range 1-100'));
    const preference = typeof term.preference === 'object' && term.preference !== null ? (term.preference as Json) : {};
    errors.push(...validateRequirements(preference.matchExpressions, `${termPath}.preference.matchExpressions`));
  });
  return errors;
}

/** validateTopologySpreadConstraints, but for the label selector and matchLabelKeys. */
export function validateTopologySpread(constraints: unknown, path: string): FieldError[] {
  const list = objects(constraints);
  return list.flatMap((c, i) => {
    const at = `${path}[${i}]`;
    const errors: FieldError[] = [];
    const maxSkew = typeof c.maxSkew === 'number' ? c.maxSkew : 0;
    if (maxSkew <= 0) errors.push(invalidValue(`${at}.maxSkew`, maxSkew, notPositive));
    if (text(c.topologyKey) === '') errors.push(required(`${at}.topologyKey`, 'can not be empty'));
    const action = text(c.whenUnsatisfiable);
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') errors.push(notSupported(`${at}.whenUnsatisfiable`, action, ['DoNotSchedule', 'ScheduleAnyway']));
    if (list.slice(i + 1).some((o) => text(o.topologyKey) === text(c.topologyKey) && text(o.whenUnsatisfiable) === action)) {
      errors.push(duplicate(`${at}.{topologyKey, whenUnsatisfiable}`, `{${text(c.topologyKey)}, ${action}}`));
    }
    if (typeof c.minDomains === 'number') {
      if (c.minDomains <= 0) errors.push(invalidValue(`${at}.minDomains`, c.minDomains, notPositive));
      if (action !== 'DoNotSchedule') errors.push(invalidValue(`${at}.minDomains`, c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      const value = c[policy];
      if (value !== undefined && value !== null && value !== 'Honor' && value !== 'Ignore') errors.push(notSupported(`${at}.${policy}`, value, ['Honor', 'Ignore']));
    }
    return errors;
  });
}

/** validateSchedulingGates: qualified names, each once. */
export function validateSchedulingGates(gates: unknown, path: string): FieldError[] {
  const seen = new Set<string>();
  return objects(gates).flatMap((g, i) => {
    const name = text(g.name);
    const errors = qualifiedName(name).map((p) => invalidValue(`${path}[${i}]`, name, p));
    if (seen.has(name)) errors.push(duplicate(`${path}[${i}]`, name));
    seen.add(name);
    return errors;
  });
}

/** validatePreemptionPolicy. */
export function validatePreemptionPolicy(policy: unknown, path: string): FieldError[] {
  const supported = ['PreemptLowerPriority', 'Never'];
  return policy === undefined || policy === null || supported.includes(String(policy)) ? [] : [notSupported(path, policy, supported)];
}
