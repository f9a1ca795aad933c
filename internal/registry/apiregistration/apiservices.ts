// APIServices (apiregistration.k8s.io/v1), as kube-aggregator 1.28 serves them
// (pkg/registry/apiservice, ValidateAPIService): one per group version, named
// `<version>.<group>`. The local ones are made at start (ensure-local-apiservices.ts); an
// APIService naming a spec.service is stored and validated but not proxied to: orch aggregates no
// other API server.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { dns1035Label } from '../networking/network-validation.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';

/** The largest groupPriorityMinimum and versionPriority (exclusive bounds of ValidateAPIService). */
const groupPriorityMax = 20000;
const versionPriorityMax = 1000;

function obj(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function validateApiService(o: KObject): FieldError[] {
  const spec = obj(o.spec);
  const [group, version] = [str(spec.group), str(spec.version)];
  const errors: FieldError[] = [];
  const requiredName = `${version}.${group}`;
  if (o.metadata.name !== undefined && o.metadata.name !== requiredName) errors.push(invalidValue('metadata.name', o.metadata.name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`));
  if (group === '' && version !== 'v1') errors.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') errors.push(...dns1123Subdomain(group).map((m) => invalidValue('spec.group', group, m)));
  errors.push(...dns1035Label(version).map((m) => invalidValue('spec.version', version, m)));
  const groupPriority = typeof spec.groupPriorityMinimum === 'number' ? spec.groupPriorityMinimum : 0;
  const versionPriority = typeof spec.versionPriority === 'number' ? spec.versionPriority : 0;
  if (groupPriority <= 0 || groupPriority > groupPriorityMax) errors.push(invalidValue('spec.groupPriorityMinimum', groupPriority, `must be positive and less than ${groupPriorityMax}`));
  if (versionPriority <= 0 || versionPriority > versionPriorityMax) errors.push(invalidValue('spec.versionPriority', versionPriority, `must be positive and less than ${versionPriorityMax}`));
  const caBundle = str(spec.caBundle);
  const caBytes = Buffer.from(caBundle, 'base64').length;
  if (spec.service === undefined || spec.service === null) {
    if (caBytes > 0) errors.push(invalidValue('spec.caBundle', `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify === true) errors.push(invalidValue('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errors;
  }
  const service = obj(spec.service);
  if (str(service.namespace) === '') errors.push(required('spec.service.namespace'));
  if (str(service.name) === '') errors.push(required('spec.service.name'));
  const port = service.port;
  if (typeof port !== 'number' || port < 1 || port > 65535) errors.push(invalidValue('spec.service.port', port ?? 0, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (spec.insecureSkipTLSVerify === true && caBytes > 0) errors.push(invalidValue('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errors;
}

/** The AVAILABLE column: the Available condition's status, with its reason when not True. */
function available(o: KObject): string {
  const conditions = Array.isArray(obj(o.status).conditions) ? (obj(o.status).conditions as unknown[]).map(obj) : [];
  const condition = conditions.find((c) => c.type === 'Available');
  if (condition === undefined) return 'Unknown';
  const status = str(condition.status);
  return status !== 'True' && str(condition.reason) !== '' ? `${status} (${str(condition.reason)})` : status;
}

/** APIServices (apiregistration.<domain>/v1): which server serves each group version. */
export const apiservices: ResourceDeclaration = {
  group: 'apiregistration',
  groupQualified: true,
  version: 'v1',
  kind: 'APIService',
  plural: 'apiservices',
  singular: 'apiservice',
  categories: ['api-extensions'],
  namespaced: false,
  nameRule: 'path-segment',
  description: 'APIService represents a server for a particular GroupVersion. Name must be "version.group".',
  fields: builtinFields('io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService'),
  subresources: { status: true },
  printerColumns: [
    nameColumn,
    { name: 'Service', type: 'string', description: 'The reference to the service that hosts this API endpoint.', cell: (o) => (obj(o.spec).service ? `${str(obj(obj(o.spec).service).namespace)}/${str(obj(obj(o.spec).service).name)}` : 'Local') },
    { name: 'Available', type: 'string', description: 'Whether this service is available.', cell: available },
    ageColumn,
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = {};
    },
    applyDefaults(o) {
      const service = obj(o.spec).service;
      if (typeof service === 'object' && service !== null && ((service as Record<string, unknown>).port ?? null) === null) (service as Record<string, unknown>).port = 443;
    },
    validate: validateApiService,
  },
};
