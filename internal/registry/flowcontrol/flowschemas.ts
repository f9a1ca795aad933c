// FlowSchemas (flowcontrol.apiserver.k8s.io), as kube-apiserver 1.28 serves them
// (pkg/registry/flowcontrol/flowschema): v1beta3, and v1beta2 (deprecated) over the same
// collection, with the status sub-resource. Data only for now: orch does not yet classify requests
// by them (API Priority and Fairness enforcement is a later issue).
import type { KObject, PrinterColumn, ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { ageColumn, nameColumn, text } from '../schema/printers.ts';
import { validateFlowSchema } from './flowschema-validation.ts';
import { asV1beta3 } from './v1beta2-conversion.ts';
import { obj } from './values.ts';

/** The matchingPrecedence of a FlowSchema that gives none (FlowSchemaDefaultMatchingPrecedence). */
const defaultMatchingPrecedence = 1000;

function defaultFlowSchema(o: KObject): void {
  const spec = o.spec;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return;
  const s = spec as Record<string, unknown>;
  if (s.matchingPrecedence === undefined || s.matchingPrecedence === null || s.matchingPrecedence === 0) s.matchingPrecedence = defaultMatchingPrecedence;
}

const columns: readonly PrinterColumn[] = [
  nameColumn,
  { name: 'PriorityLevel', type: 'string', description: '`name` is the name of the priority level configuration being referenced Required.', cell: (o) => text(o, 'spec.priorityLevelConfiguration.name') },
  { name: 'MatchingPrecedence', type: 'string', description: '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request.', cell: (o) => (typeof obj(o.spec).matchingPrecedence === 'number' ? (obj(o.spec).matchingPrecedence as number) : 0) },
  { name: 'DistinguisherMethod', type: 'string', description: '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema.', cell: (o) => text(o, 'spec.distinguisherMethod.type', '<none>') },
  ageColumn,
  {
    name: 'MissingPL', type: 'string', description: 'references a broken or non-existent PriorityLevelConfiguration',
    cell: (o) => {
      const conditions = Array.isArray(obj(o.status).conditions) ? (obj(o.status).conditions as unknown[]) : [];
      const dangling = conditions.map(obj).find((c) => c.type === 'Dangling');
      return typeof dangling?.status === 'string' ? dangling.status : '?';
    },
  },
];

const shared = {
  group: 'flowcontrol.apiserver',
  groupQualified: true,
  kind: 'FlowSchema',
  plural: 'flowschemas',
  singular: 'flowschema',
  namespaced: false,
  nameRule: 'subdomain',
  description: 'FlowSchema defines the schema of a group of flows. Note that a flow is made up of a set of inbound API requests with similar attributes and is identified by a pair of strings: the name of the FlowSchema and a "flow distinguisher".',
  subresources: { status: true },
  tracksGeneration: true,
  printerColumns: columns,
  strategy: {
    prepareForCreate(o: KObject) {
      o.status = {};
    },
    applyDefaults: defaultFlowSchema,
    validate: validateFlowSchema,
  },
} as const;

/** FlowSchemas (flowcontrol.apiserver.<domain>/v1beta3, the storage version). */
export const flowschemas: ResourceDeclaration = { ...shared, version: 'v1beta3', fields: builtinFields('io.k8s.api.flowcontrol.v1beta3.FlowSchema') };

/** FlowSchemas (flowcontrol.apiserver.<domain>/v1beta2): the same objects, named alike in both versions. */
export const flowschemasV1beta2: ResourceDeclaration = {
  ...shared,
  version: 'v1beta2',
  fields: builtinFields('io.k8s.api.flowcontrol.v1beta2.FlowSchema'),
  deprecatedSince: '1.26',
  removedIn: '1.29',
  replacement: { version: 'v1beta3', kind: 'FlowSchema' },
  storedAs: { decl: flowschemas, toStored: asV1beta3, fromStored: (o) => structuredClone(o) },
};
