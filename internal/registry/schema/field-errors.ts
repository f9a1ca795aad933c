import type { StatusCause } from '../errors/status-error.ts';

/** One validation failure of one field, in the style of Kubernetes field errors. */
export interface FieldError {
  readonly type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueDuplicate' | 'FieldValueTypeInvalid';
  readonly field: string;
  readonly message: string;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? 'null';
}

/** A missing required field. */
export function required(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, message: `Required value${detail ? `: ${detail}` : ''}` };
}

/** A field whose value breaks a rule. */
export function invalidValue(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${quote(value)}: ${detail}` };
}

/** A field whose value is not one of the allowed ones. */
export function notSupported(field: string, value: unknown, allowed: readonly string[]): FieldError {
  return { type: 'FieldValueNotSupported', field, message: `Unsupported value: ${quote(value)}: supported values: ${allowed.map((a) => `"${a}"`).join(', ')}` };
}

/** A field that may not be set or changed. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` };
}

/** A field that may not change after creation. */
export function immutable(field: string, value: unknown): FieldError {
  return invalidValue(field, value, 'field is immutable');
}

/** Field errors as Status causes. */
export function toCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: e.message, field: e.field }));
}
