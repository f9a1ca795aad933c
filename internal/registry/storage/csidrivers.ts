// CSIDrivers (storage.<domain>/v1), as kube-apiserver 1.28 serves them: SetDefaults_CSIDriver
// (SELinuxMountReadWriteOncePod is beta and on), ValidateCSIDriver/Update and printCSIDriver.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { duplicate, forbidden, immutable, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { stableStringify } from '../generic/stable-json.ts';
import { validateCSIDriverName } from './csi-names.ts';

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Persistent', 'Ephemeral'];
const tokenSecondsMin = 600;
const tokenSecondsMax = 2 ** 32;

function validateTokenRequests(requests: unknown): FieldError[] {
  if (!Array.isArray(requests)) return [];
  const seen = new Set<string>();
  return (requests as { audience?: unknown; expirationSeconds?: unknown }[]).flatMap((r, i) => {
    const at = `spec.tokenRequests[${i}]`;
    const errors: FieldError[] = [];
    const audience = String(r.audience ?? '');
    if (seen.has(audience)) errors.push(duplicate(`${at}.audience`, audience));
    seen.add(audience);
    const seconds = r.expirationSeconds;
    if (typeof seconds === 'number' && seconds < tokenSecondsMin) errors.push(forbidden(`${at}.expirationSeconds`, 'may not specify a duration less than 10 minutes'));
    if (typeof seconds === 'number' && seconds > tokenSecondsMax) errors.push(forbidden(`${at}.expirationSeconds`, 'may not specify a duration larger than 2^32 seconds'));
    return errors;
  });
}

function validateCSIDriver(o: KObject): FieldError[] {
  const errors = validateCSIDriverName(o.metadata.name ?? '', 'name');
  // Upstream's path says "attachedRequired".
  if (field(o, 'spec.attachRequired') === undefined) errors.push(required('spec.attachedRequired'));
  for (const key of ['podInfoOnMount', 'storageCapacity', 'seLinuxMount']) if (field(o, `spec.${key}`) === undefined) errors.push(required(`spec.${key}`));
  const policy = field(o, 'spec.fsGroupPolicy');
  if (policy !== undefined && !fsGroupPolicies.includes(policy as string)) errors.push(notSupported('spec.fsGroupPolicy', policy, fsGroupPolicies));
  errors.push(...validateTokenRequests(field(o, 'spec.tokenRequests')));
  const modes = field(o, 'spec.volumeLifecycleModes');
  const list = Array.isArray(modes) ? modes : [];
  if (list.length === 0) errors.push(required('spec.volumeLifecycleModes', 'must specify at least one volume lifecycle mode'));
  list.forEach((m, i) => {
    if (!lifecycleModes.includes(m as string)) errors.push(notSupported(`spec.volumeLifecycleModes[${i}]`, m, lifecycleModes));
  });
  return errors;
}

function defaultCSIDriver(o: KObject): void {
  const spec = (o.spec ??= {}) as Record<string, unknown>;
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
}

function tokenRequestsCell(o: KObject): string {
  const requests = field(o, 'spec.tokenRequests');
  return Array.isArray(requests) ? (requests as { audience?: string }[]).map((r) => r.audience ?? '').join(',') : '<unset>';
}

const boolCell = (path: string) => (o: KObject): boolean => field(o, path) === true;

/** CSIDrivers (storage.<domain>/v1): what a CSI volume driver on the nodes needs from the cluster. */
export const csidrivers: ResourceDeclaration = {
  group: 'storage',
  groupQualified: true,
  version: 'v1',
  kind: 'CSIDriver',
  plural: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  nameRule: 'subdomain',
  description: 'CSIDriver captures information about a Container Storage Interface (CSI) volume driver deployed on the cluster.',
  fields: builtinFields('io.k8s.api.storage.v1.CSIDriver'),
  required: builtinRequired('io.k8s.api.storage.v1.CSIDriver'),
  printerColumns: [
    nameColumn,
    { name: 'AttachRequired', type: 'boolean', description: 'attachRequired indicates this CSI volume driver requires an attach operation.', cell: (o) => field(o, 'spec.attachRequired') !== false },
    { name: 'PodInfoOnMount', type: 'boolean', description: 'podInfoOnMount indicates this CSI volume driver requires additional pod information during mount operations.', cell: boolCell('spec.podInfoOnMount') },
    { name: 'StorageCapacity', type: 'boolean', description: 'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity.', cell: boolCell('spec.storageCapacity') },
    { name: 'TokenRequests', type: 'string', description: 'tokenRequests indicates the CSI driver needs pods service account tokens it is mounting volume for.', cell: tokenRequestsCell },
    { name: 'RequiresRepublish', type: 'boolean', description: 'requiresRepublish indicates the CSI driver wants NodePublishVolume being periodically called.', cell: boolCell('spec.requiresRepublish') },
    { name: 'Modes', type: 'string', description: 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.', cell: (o) => ((field(o, 'spec.volumeLifecycleModes') as string[] | undefined) ?? []).join(',') || '<none>' },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults: defaultCSIDriver,
    validate: validateCSIDriver,
    validateUpdate(o, old) {
      const errors: FieldError[] = [];
      if (field(o, 'spec.attachRequired') !== field(old, 'spec.attachRequired')) errors.push(immutable('spec.attachedRequired', field(o, 'spec.attachRequired') ?? null));
      if (stableStringify(field(o, 'spec.volumeLifecycleModes') ?? null) !== stableStringify(field(old, 'spec.volumeLifecycleModes') ?? null)) {
        errors.push(immutable('spec.volumeLifecycleModes', field(o, 'spec.volumeLifecycleModes') ?? null));
      }
      return errors;
    },
  },
};
