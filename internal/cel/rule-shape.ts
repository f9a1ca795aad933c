// The checks kube makes of each `x-kubernetes-validations` entry before compiling it: a rule is
// required, messages are single non-empty lines, the reason is a known one, and a fieldPath
// names a field of the schema. A node with such errors is not compiled.
import { invalidValue, notSupported, required, type FieldError } from '../registry/schema/field-errors.ts';
import { childPath, indexPath } from './field-paths.ts';
import { additionalPropertiesSchema, type StructuralSchema, type ValidationRule } from './schema.ts';

const reasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const lineBreak = /[\n\r]/;

/** Errors in the shape of the rules of one node (`path` is the node's schema path). */
export function ruleShapeErrors(schema: StructuralSchema, rules: readonly ValidationRule[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  rules.forEach((rule, i) => {
    const at = (field: string): string => childPath(indexPath(childPath(path, 'x-kubernetes-validations'), i), field);
    const ruleText = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    if (ruleText === '') errors.push(required(at('rule'), 'rule is not specified'));
    else if (message.length > 0 && message.trim() === '') errors.push(invalidValue(at('message'), message, 'message must be non-empty if specified'));
    else if (lineBreak.test(message.trim())) errors.push(invalidValue(at('message'), message, 'message must not contain line breaks'));
    else if (lineBreak.test(ruleText) && message.trim() === '') errors.push(required(at('message'), 'message must be specified if rule contains line breaks'));
    if ((rule.messageExpression ?? '').length > 0 && (rule.messageExpression ?? '').trim() === '') {
      errors.push(required(at('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !reasons.includes(rule.reason)) errors.push(notSupported(at('reason'), rule.reason, reasons));
    const fieldPath = rule.fieldPath;
    if (fieldPath !== undefined && fieldPath.length > 0) {
      if (fieldPath.trim() === '') errors.push(invalidValue(at('fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
      if (lineBreak.test(fieldPath)) errors.push(invalidValue(at('fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
      if (!fieldPathValid(schema, fieldPath)) errors.push(invalidValue(at('fieldPath'), fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return errors;
}

/** Whether a rule's fieldPath (`.a.b`, `.a['k']`) walks through properties and map keys of `schema`. */
export function fieldPathValid(schema: StructuralSchema, fieldPath: string): boolean {
  let node: StructuralSchema | undefined = schema;
  let rest = fieldPath.trim();
  while (rest.length > 0 && node !== undefined) {
    const dotted = /^\.([^.[\]]+)/.exec(rest);
    const quoted = /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest);
    const match = dotted ?? quoted;
    if (match === null) return false;
    const name = (match[1] ?? '').replace(/\\(.)/g, '$1');
    const current: StructuralSchema = node;
    if (current.properties !== undefined) node = current.properties[name];
    else node = additionalPropertiesSchema(current);
    rest = rest.slice(match[0].length);
  }
  return node !== undefined;
}
