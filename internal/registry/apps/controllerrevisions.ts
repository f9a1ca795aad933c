// ControllerRevisions (apps/v1), as kube-apiserver 1.28 serves them: ValidateControllerRevision
// and its Update (data immutable) of pkg/apis/apps/validation, printControllerRevision.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { immutable, invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';

function validateControllerRevision(o: KObject): FieldError[] {
  const errors: FieldError[] = o.data === undefined || o.data === null ? [required('data', 'data is mandatory')] : [];
  if (typeof o.revision === 'number' && o.revision < 0) errors.push(invalidValue('revision', o.revision, 'must be greater than or equal to 0'));
  return errors;
}

/** The controller owning the revision as `kind.group/name` in lower case, or `<none>`. */
function controllerCell(o: KObject): string {
  const owners = Array.isArray(o.metadata.ownerReferences) ? (o.metadata.ownerReferences as { controller?: boolean; apiVersion?: string; kind?: string; name?: string }[]) : [];
  const ref = owners.find((r) => r.controller === true);
  if (ref === undefined) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = ref.kind ?? '';
  if (kind === '' && group === '') return ref.name ?? '';
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${ref.name ?? ''}`;
}

/** ControllerRevisions (apps/v1): immutable snapshots of a controller's state (StatefulSet, DaemonSet history). */
export const controllerrevisions: ResourceDeclaration = {
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  nameRule: 'subdomain',
  description: 'ControllerRevision implements an immutable snapshot of state data.',
  fields: builtinFields('io.k8s.api.apps.v1.ControllerRevision'),
  required: builtinRequired('io.k8s.api.apps.v1.ControllerRevision'),
  printerColumns: [
    nameColumn,
    { name: 'Controller', type: 'string', description: 'Controller of the object', cell: controllerCell },
    { name: 'Revision', type: 'string', description: 'Revision indicates the revision of the state represented by Data.', cell: (o) => (typeof o.revision === 'number' ? o.revision : 0) },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    validate: validateControllerRevision,
    validateUpdate: (o, old) => (stableStringify(o.data ?? null) === stableStringify(old.data ?? null) ? [] : [immutable('data', o.data ?? null)]),
  },
};
