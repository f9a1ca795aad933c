// The tables of ValidatingAdmissionPolicies and their bindings, as kube-apiserver 1.28's printers
// show them: NAME, VALIDATIONS, PARAMKIND, AGE and NAME, POLICYNAME, PARAMREF, AGE.
import type { KObject, PrinterColumn } from '../schema/declaration.ts';
import { formatLabelSelector } from '../schema/label-selectors.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';

function specOf(o: KObject): Record<string, unknown> {
  return typeof o.spec === 'object' && o.spec !== null ? (o.spec as Record<string, unknown>) : {};
}

/** `<apiVersion>/<kind>` of a policy's paramKind, `<unset>` without one. */
function paramKindCell(o: KObject): string {
  const kind = specOf(o).paramKind as { apiVersion?: string; kind?: string } | undefined | null;
  return kind === undefined || kind === null ? '<unset>' : `${kind.apiVersion ?? ''}/${kind.kind ?? ''}`;
}

/** `<namespace>/<name>` (`*` for no namespace), the selector, or `<unset>` for a binding's paramRef. */
function paramRefCell(o: KObject): string {
  const ref = specOf(o).paramRef as { name?: string; namespace?: string; selector?: unknown } | undefined | null;
  if (ref === undefined || ref === null) return '<unset>';
  if (typeof ref.name === 'string' && ref.name !== '') return `${ref.namespace !== undefined && ref.namespace !== '' ? ref.namespace : '*'}/${ref.name}`;
  if (ref.selector !== undefined && ref.selector !== null) return formatLabelSelector(ref.selector);
  return '<unset>';
}

/** NAME, VALIDATIONS, PARAMKIND, AGE. */
export const policyColumns: readonly PrinterColumn[] = [
  nameColumn,
  { name: 'Validations', type: 'integer', description: 'Validations indicates the number of validation rules defined in this configuration', cell: (o) => (Array.isArray(specOf(o).validations) ? (specOf(o).validations as unknown[]).length : 0) },
  { name: 'ParamKind', type: 'string', description: 'ParamKind specifies the kind of resources used to parameterize this policy', cell: paramKindCell },
  ageColumn,
];

/** NAME, POLICYNAME, PARAMREF, AGE. */
export const policyBindingColumns: readonly PrinterColumn[] = [
  nameColumn,
  { name: 'PolicyName', type: 'string', description: 'PolicyName indicates the policy definition which the policy binding binded to', cell: (o) => String(specOf(o).policyName ?? '') },
  { name: 'ParamRef', type: 'string', description: 'ParamRef indicates the param resource which sets the configration param', cell: paramRefCell },
  ageColumn,
];
