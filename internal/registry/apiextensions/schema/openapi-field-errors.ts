// kubeOpenAPIResultToFieldErrors of apiextensions-apiserver 1.28: kube-openapi errors as the field
// errors kube-apiserver returns. `prefix` is the field path the validated value sits at (undefined
// for a whole custom object, whose errors are named from its root; a composite error there is
// reported at Go's nil path, "<nil>").
import { invalidShown, notSupportedShown, required, tooMany, type FieldError } from '../../schema/field-errors.ts';
import { goShown } from './go-values.ts';
import type { OpenApiError } from './openapi-validator.ts';

/** Go's field.Path.Child on a possibly nil path. */
export function childPath(prefix: string | undefined, name: string): string {
  return prefix === undefined || prefix === '' ? name : `${prefix}.${name}`;
}

/** The field error kube-apiserver reports for one kube-openapi error. */
export function toFieldError(err: OpenApiError, prefix: string | undefined): FieldError {
  if (err.kind === 'composite') return invalidShown(prefix ?? '<nil>', '""', err.message);
  const named = err.name !== '' && err.name !== '.' ? childPath(prefix, err.name.replace(/^\./, '')) : prefix;
  const field = named ?? '<nil>';
  const value = err.value ?? '';
  switch (err.code) {
    case 'required':
      return required(field);
    case 'enum': {
      const allowed = (err.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return notSupportedShown(field, goShown(err.value), allowed.map((a) => JSON.stringify(a).slice(1, -1)));
    }
    case 'tooLong':
      return { type: 'FieldValueTooLong', field, message: err.valid === undefined ? 'Too long: value is too long' : `Too long: may not be longer than ${err.valid}` };
    case 'maxItems':
    case 'tooManyProperties':
      return tooMany(field, typeof err.value === 'number' ? err.value : -1, err.valid ?? -1);
    case 'invalidType':
      return { type: 'FieldValueTypeInvalid', field, message: `Invalid value: ${goShown(value)}: ${err.message}` };
    default:
      return invalidShown(field, goShown(value), err.message);
  }
}

/** All of a validation's errors as field errors, in order. */
export function toFieldErrors(errors: readonly OpenApiError[], prefix: string | undefined): FieldError[] {
  return errors.map((e) => toFieldError(e, prefix));
}
