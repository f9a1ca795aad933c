// CSINodes (storage.<domain>/v1), as kube-apiserver 1.28 serves them: ValidateCSINode/Update of
// pkg/apis/storage/validation and printCSINode.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { duplicate, invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { qualifiedName } from '../schema/name-validation.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';
import { validateCSIDriverName } from './csi-names.ts';

const nodeIDMax = 192;

interface Driver {
  name?: unknown;
  nodeID?: unknown;
  topologyKeys?: unknown;
  allocatable?: { count?: unknown };
}

function drivers(o: KObject): Driver[] {
  const list = field(o, 'spec.drivers');
  return Array.isArray(list) ? (list as Driver[]) : [];
}

function validateDriver(d: Driver, at: string, names: Set<string>): FieldError[] {
  const name = String(d.name ?? '');
  const errors = validateCSIDriverName(name, `${at}.name`);
  const nodeID = String(d.nodeID ?? '');
  if (nodeID === '') errors.push(required(`${at}.nodeID`));
  if (nodeID.length > nodeIDMax) errors.push(invalidValue(`${at}.nodeID`, nodeID, `must be ${nodeIDMax} characters or less`));
  const count = d.allocatable?.count;
  if (typeof count === 'number' && count < 0) errors.push(invalidValue(`${at}.allocatable.count`, count, 'must be greater than or equal to 0'));
  if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of Array.isArray(d.topologyKeys) ? (d.topologyKeys as string[]) : []) {
    if (key === '') errors.push(required(at));
    if (keys.has(key)) errors.push(duplicate(at, key));
    keys.add(key);
    errors.push(...qualifiedName(key).map((p) => invalidValue(at, key, p)));
  }
  return errors;
}

/** ValidateCSINodeUpdate: a driver entry, once registered, may not change (only be added or removed). */
function validateCSINodeUpdate(o: KObject, old: KObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const before of drivers(old)) {
    for (const after of drivers(o)) {
      if (before.name === after.name && stableStringify(before) !== stableStringify(after)) errors.push(invalidValue('CSINodeDriver', after, 'field is immutable'));
    }
  }
  return errors;
}

/** CSINodes (storage.<domain>/v1): the CSI drivers installed on a node, named after the node. */
export const csinodes: ResourceDeclaration = {
  group: 'storage',
  groupQualified: true,
  version: 'v1',
  kind: 'CSINode',
  plural: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  nameRule: 'subdomain',
  description: 'CSINode holds information about all CSI drivers installed on a node.',
  fields: builtinFields('io.k8s.api.storage.v1.CSINode'),
  required: builtinRequired('io.k8s.api.storage.v1.CSINode'),
  printerColumns: [nameColumn, { name: 'Drivers', type: 'integer', description: 'Drivers indicates the number of CSI drivers registered on the node', cell: (o) => drivers(o).length }, ageColumn],
  strategy: {
    allowCreateOnUpdate: false,
    validate(o) {
      const names = new Set<string>();
      return drivers(o).flatMap((d, i) => validateDriver(d, `spec.drivers[${i}]`, names));
    },
    validateUpdate: validateCSINodeUpdate,
  },
};
