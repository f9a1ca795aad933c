// CustomResourceDefinitions (apiextensions.<domain>/v1), as kube-apiextensions-apiserver 1.28
// serves them: v1 defaults, ValidateCustomResourceDefinition(Update) with the schemas' CEL rules
// compiled and their cost estimated, the status the server keeps (storedVersions from the first
// write on), generation counting spec changes. Serving the kinds they define is crd-serving.ts's.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { defaultCrd } from './crd-defaults.ts';
import { validateCrd, validateCrdUpdate } from './crd-validation.ts';
import { compileSchemaRules } from '../../cel/crd-schema-rules.ts';
import { validateRules } from '../../cel/crd-rules.ts';
import type { StructuralSchema } from '../../cel/schema.ts';
import type { FieldError } from '../schema/field-errors.ts';
import { storageVersionOf } from './crd-versions.ts';

const definition = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition';

/** The validation options every CRD write uses: rules compiled and costed as kube does. */
const ruleChecks = {
  checkRules: (schema: Record<string, unknown>, path: string): FieldError[] => [...compileSchemaRules(schema as StructuralSchema, path)],
  // kube 1.28 also runs the rules on every default, as they would run on an object that got it.
  checkDefaultRules: (schema: Record<string, unknown>, value: unknown, path: string, isResourceRoot: boolean): FieldError[] => [...validateRules(schema as StructuralSchema, value, undefined, { path, isResourceRoot }).errors],
};

/** Adds the storage version to status.storedVersions when it is not there yet (kube's PrepareForCreate/Update). */
function recordStorageVersion(crd: KObject): void {
  const storage = storageVersionOf(crd);
  if (storage === undefined) return;
  const status = (typeof crd.status === 'object' && crd.status !== null ? crd.status : (crd.status = {})) as Record<string, unknown>;
  const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as unknown[]) : [];
  if (!stored.includes(storage)) status.storedVersions = [...stored, storage];
}

/** CustomResourceDefinitions: the kinds the cluster's users add to the API. */
export const customresourcedefinitions: ResourceDeclaration = {
  group: 'apiextensions',
  groupQualified: true,
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
  fields: builtinFields(definition),
  required: builtinRequired(definition),
  subresources: { status: true },
  tracksGeneration: true,
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(crd) {
      // The status is the server's: what a create brings is dropped, the names wait for the naming controller.
      crd.status = { acceptedNames: { plural: '', kind: '' } };
      recordStorageVersion(crd);
    },
    applyDefaults: (crd) => {
      defaultCrd(crd);
    },
    // Create and update validate apart: the update's rules include the create's (with the old object's leniencies).
    validateCreate: (crd) => validateCrd(crd, ruleChecks),
    validateUpdate: (crd, old) => validateCrdUpdate(crd, old, ruleChecks),
    prepareForUpdate(crd) {
      recordStorageVersion(crd);
    },
  },
};
