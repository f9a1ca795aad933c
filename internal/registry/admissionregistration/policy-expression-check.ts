// Compiling an admission expression at write time, as kube-apiserver 1.28's admissionregistration
// validation does (validateCELCondition): an expression that does not compile is an Invalid field
// error carrying the expression and the compiler's report.
import { compileAdmissionExpression } from '../../cel/admission-expressions.ts';
import { invalidValue, type FieldError } from '../schema/field-errors.ts';

/** The variables every admission expression may name (kube's base request environment). */
export const requestVariables: readonly string[] = ['object', 'oldObject', 'request', 'authorizer'];

/** The compiler's report as kube words it: `compilation failed: ERROR: <input>:1:1: ...`. */
export function compilationDetail(error: string): string {
  return error.startsWith('compilation failed') ? error : `compilation failed: ${error}`;
}

/** An Invalid field error at `path` when `expression` does not compile over `variables`; undefined when it does. */
export function checkExpression(expression: string, variables: readonly string[], path: string): FieldError | undefined {
  const result = compileAdmissionExpression(expression, variables);
  return result.error === undefined ? undefined : invalidValue(path, expression, compilationDetail(result.error));
}
