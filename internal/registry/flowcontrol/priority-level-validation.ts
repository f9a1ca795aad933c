// kube-apiserver 1.28's validation of a PriorityLevelConfiguration
// (ValidatePriorityLevelConfiguration of pkg/apis/flowcontrol/validation/validation.go). The
// concurrency shares are named as the request's version names them: `assuredConcurrencyShares`
// in v1beta2, `nominalConcurrencyShares` in v1beta3.
import type { KObject } from '../schema/declaration.ts';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { mandatoryPriorityLevels } from './bootstrap-configuration.ts';
import { validateConditions } from './flowschema-validation.ts';
import { queuesMax, shuffleShardingHashBitsMax } from './limits.ts';
import { v1beta3SpecAsV1beta2 } from './v1beta2-conversion.ts';
import { goEqual, obj } from './values.ts';

const levelTypes = ['Exempt', 'Limited'];
const responseTypes = ['Queue', 'Reject'];

function int(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

function validateLendable(v: unknown, at: string): FieldError[] {
  return typeof v === 'number' && (v < 0 || v > 100) ? [invalidValue(at, v, 'must be between 0 and 100, inclusive')] : [];
}

/** ValidatePriorityLevelQueuingConfiguration, with shuffle sharding's entropy bound. */
function validateQueuing(q: Record<string, unknown>, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const [limit, queues, handSize] = [int(q.queueLengthLimit), int(q.queues), int(q.handSize)];
  if (limit <= 0) errors.push(invalidValue(`${at}.queueLengthLimit`, limit, 'must be positive'));
  if (queues <= 0) errors.push(invalidValue(`${at}.queues`, queues, 'must be positive'));
  else if (queues > queuesMax) errors.push(invalidValue(`${at}.queues`, queues, `must not be greater than ${queuesMax}`));
  if (handSize <= 0) errors.push(invalidValue(`${at}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues) errors.push(invalidValue(`${at}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * handSize) > shuffleShardingHashBitsMax) {
    errors.push(invalidValue(`${at}.handSize`, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${shuffleShardingHashBitsMax}`));
  }
  return errors;
}

function validateLimitResponse(r: Record<string, unknown>, at: string): FieldError[] {
  switch (r.type) {
    case 'Reject':
      return r.queuing !== undefined && r.queuing !== null ? [forbidden(`${at}.queuing`, 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      return r.queuing === undefined || r.queuing === null ? [required(`${at}.queuing`, 'must not be empty if limited.limitResponse.type is Limited')] : validateQueuing(obj(r.queuing), `${at}.queuing`);
    default:
      return [notSupported(`${at}.type`, r.type ?? '', responseTypes)];
  }
}

function validateLimited(l: Record<string, unknown>, at: string, sharesField: string): FieldError[] {
  const errors: FieldError[] = [];
  const shares = int(l[sharesField]);
  if (shares <= 0) errors.push(invalidValue(`${at}.${sharesField}`, shares, 'must be positive'));
  errors.push(...validateLimitResponse(obj(l.limitResponse), `${at}.limitResponse`));
  errors.push(...validateLendable(l.lendablePercent, `${at}.lendablePercent`));
  if (typeof l.borrowingLimitPercent === 'number' && l.borrowingLimitPercent < 0) errors.push(invalidValue(`${at}.borrowingLimitPercent`, l.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  return errors;
}

function validateExempt(e: Record<string, unknown>, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof e.nominalConcurrencyShares === 'number' && e.nominalConcurrencyShares < 0) errors.push(invalidValue(`${at}.nominalConcurrencyShares`, e.nominalConcurrencyShares, 'must be a non-negative number'));
  errors.push(...validateLendable(e.lendablePercent, `${at}.lendablePercent`));
  return errors;
}

/** ValidatePriorityLevelConfiguration over a defaulted object whose limited shares are named `sharesField`. */
export function validatePriorityLevel(o: KObject, sharesField: 'nominalConcurrencyShares' | 'assuredConcurrencyShares'): FieldError[] {
  const spec = obj(o.spec);
  const name = o.metadata.name ?? '';
  const errors: FieldError[] = [];
  const has = (f: string): boolean => spec[f] !== undefined && spec[f] !== null;
  if (spec.type === 'Exempt') {
    if (has('limited')) errors.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
    if (has('exempt')) errors.push(...validateExempt(obj(spec.exempt), 'spec.exempt'));
  } else if (spec.type === 'Limited') {
    if (has('exempt')) errors.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
    if (!has('limited')) errors.push(required('spec.limited', 'must not be empty when type is Limited'));
    else errors.push(...validateLimited(obj(spec.limited), 'spec.limited', sharesField));
  } else {
    errors.push(notSupported('spec.type', spec.type ?? '', levelTypes));
  }
  if ((name === 'exempt') !== (spec.type === 'Exempt')) errors.push(invalidValue('spec.type', spec.type ?? '', "type must be 'Exempt' if and only if name is 'exempt'"));
  const mandatory = mandatoryPriorityLevels.find((m) => m.name === name);
  if (mandatory !== undefined) {
    // The exempt level's concurrency (spec.exempt) is the operator's to set; the rest is fixed.
    const comparable = (s: Record<string, unknown>): Record<string, unknown> => (name === 'exempt' ? { ...s, exempt: undefined } : s);
    const fixed = sharesField === 'assuredConcurrencyShares' ? v1beta3SpecAsV1beta2(mandatory.spec) : mandatory.spec;
    if (!goEqual(comparable(spec), comparable(fixed))) {
      errors.push(invalidValue('spec', spec, name === 'exempt' ? "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value" : `spec of '${name}' must equal the fixed value`));
    }
  }
  errors.push(...validateConditions(o.status));
  return errors;
}
