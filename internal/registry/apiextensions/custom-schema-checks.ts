// What a custom kind's schema does to its objects, as kube's customResourceStrategy does it:
// nulls a field may not hold dropped and structural defaulting, then validation against the schema (kube-openapi's checks, list types,
// embedded resources), then the `x-kubernetes-validations` rules — which are not run while the
// object has errors that make them meaningless (a wrong type, a missing required field), as kube
// reports with its own sentence.
import { validateRules } from '../../cel/crd-rules.ts';
import type { StructuralSchema } from '../../cel/schema.ts';
import { invalidShown, type FieldError } from '../schema/field-errors.ts';
import type { KObject } from '../schema/declaration.ts';
import { applyDefaults } from './schema/defaults.ts';
import { pruneNonNullableNulls } from './schema/prune.ts';
import { validateCustomObject } from './schema/validate-object.ts';

/** Error types after which kube does not evaluate the rules (its hasBlockingErr). */
const blocking: ReadonlySet<FieldError['type']> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

type Json = Record<string, unknown>;

/** What a custom kind's schema does to its objects: defaulting, and validation with its rules. */
export const customSchemaChecks = {
  /** Fills the schema's defaults in place. */
  applyDefaults(schema: Json, obj: KObject): void {
    // kube's decoder drops a null given for a field that may not be null, unless a default replaces it.
    pruneNonNullableNulls(obj, schema);
    applyDefaults(obj, schema);
  },
  /** The object's errors against its schema and the schema's rules (`old` on update: transition rules). */
  validate(schema: Json, obj: KObject, old: KObject | undefined): FieldError[] {
    const errors = validateCustomObject(obj, schema);
    if (errors.some((e) => blocking.has(e.type))) {
      return [...errors, invalidShown('<nil>', '"null"', 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
    }
    return [...errors, ...validateRules(schema as StructuralSchema, obj, old).errors];
  },
};
