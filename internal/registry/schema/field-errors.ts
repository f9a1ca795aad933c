import type { StatusCause } from '../errors/status-error.ts';

/** One validation failure of one field, in the style of Kubernetes field errors. */
export interface FieldError {
  readonly type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTooMany' | 'FieldValueDuplicate' | 'FieldValueTypeInvalid' | 'FieldValueNotFound';
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

/**
 * A field whose value is not one of the allowed ones, the value shown as Go prints it: kube reports
 * some enums on their enclosing struct (a Deployment's `spec.strategy`), printed with `%#v`.
 */
export function notSupportedShown(field: string, shown: string, allowed: readonly string[]): FieldError {
  return { type: 'FieldValueNotSupported', field, message: `Unsupported value: ${shown}: supported values: ${allowed.map((a) => `"${a}"`).join(', ')}` };
}

/** A field that may not be set or changed. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` };
}

/** A field that may not change after creation. */
export function immutable(field: string, value: unknown): FieldError {
  return invalidValue(field, value, 'field is immutable');
}

/**
 * A field whose value breaks a rule, the value shown as given: what Go prints for a value with a
 * String method (an int-or-string shows `5%`, unquoted).
 */
export function invalidShown(field: string, shown: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${shown}: ${detail}` };
}

/** A reference to something that does not exist (a volume a mount names). */
export function notFoundValue(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, message: `Not found: ${quote(value)}` };
}

/** A value that appears twice where it must be unique. */
export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${quote(value)}` };
}

/** A value longer than `max` bytes. */
export function tooLong(field: string, max: number): FieldError {
  return { type: 'FieldValueTooLong', field, message: `Too long: must have at most ${max} bytes` };
}

/** A list with more than `max` items. */
export function tooMany(field: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items` };
}

/** Field errors as Status causes. */
export function toCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: e.message, field: e.field }));
}
