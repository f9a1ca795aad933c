// ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate of
// apiextensions-apiserver 1.28 for apiextensions.k8s.io/v1 objects. kube validates the internal
// form of a CRD: versions whose schemas (subresources, printer columns) are all the same have them
// lifted to spec.validation (spec.subresources, spec.additionalPrinterColumns), so errors in them
// are reported there, exactly as kube-apiserver reports them. The generic metadata checks (name
// format, labels...) are the generic store's; this adds the name's `<plural>.<group>` rule.
import type { KObject } from '../schema/declaration.ts';
import { immutable, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { dns1035Label } from '../admissionregistration/go-values.ts';
import { parseGoUrl } from '../admissionregistration/go-url.ts';
import { hasValidConversionReviewVersionOrEmpty, validateConversion } from './crd-validation-conversion.ts';
import { requiredNames, validateColumn, validateDeprecationWarning, validateNames, validateSubresources } from './crd-validation-names.ts';
import { mapListKeysMapSetChecks } from './crd-validation-schema-props.ts';
import { hasInvalidType, schemaHas, validateSchemaValidation, type CheckRules, type SchemaRequirements } from './crd-validation-schema.ts';
import { goStrings } from './schema/go-values.ts';
import type { CheckDefaultRules } from './schema/default-validation.ts';
import { validateDefaults } from './schema/default-validation.ts';
import { isObject, jsonEqual, type JsonSchema } from './schema/schema-props.ts';
import { structuralConversionError, validateStructural } from './schema/structural.ts';

type Entry = Record<string, unknown>;

/** How CRD validation reaches the CEL engine. */
export interface CrdValidationOptions {
  /** Compiles the x-kubernetes-validations rules of one version's schema at `path`; its errors are reported. */
  readonly checkRules?: CheckRules;
  /** Evaluates a node's rules on its (otherwise valid) default, as kube 1.28's ValidateDefaults does. */
  readonly checkDefaultRules?: CheckDefaultRules;
}

/** What this write requires; an update relaxes what the stored object already got away with. */
interface Requirements {
  readonly recognizedConversionReviewVersion: boolean;
  readonly immutableNames: boolean;
  readonly openApiSchema: boolean;
  readonly schema: SchemaRequirements;
}

const createRequirements: Requirements = {
  recognizedConversionReviewVersion: true,
  immutableNames: false,
  openApiSchema: true,
  schema: { requireStructuralSchema: true, requireValidPropertyType: true, requirePrunedDefaults: true, requireAtomicSetType: true, requireMapListKeysMapSetValidation: true },
};

function entry(v: unknown): Entry {
  return isObject(v) ? v : {};
}

function text(o: Entry, key: string): string {
  return typeof o[key] === 'string' ? (o[key] as string) : '';
}

function versionsOf(crd: Entry): Entry[] {
  const spec = entry(crd.spec);
  return Array.isArray(spec.versions) ? spec.versions.map(entry) : [];
}

/** The v1 spec as kube's internal form sees it: per-version settings lifted when all versions agree. */
interface InternalSpec {
  readonly versions: Entry[];
  readonly validation: unknown;
  readonly subresources: unknown;
  readonly columns: unknown;
  readonly schemaLifted: boolean;
  readonly subresourcesLifted: boolean;
  readonly columnsLifted: boolean;
}

function internalSpec(crd: Entry): InternalSpec {
  const versions = versionsOf(crd);
  const same = (key: string): boolean => versions.length > 0 && versions.every((v) => jsonEqual(v[key], versions[0]?.[key]));
  const schemaLifted = same('schema');
  const subresourcesLifted = same('subresources');
  const columnsLifted = same('additionalPrinterColumns');
  return {
    versions,
    validation: schemaLifted ? versions[0]?.schema : undefined,
    subresources: subresourcesLifted ? versions[0]?.subresources : undefined,
    columns: columnsLifted ? versions[0]?.additionalPrinterColumns : undefined,
    schemaLifted,
    subresourcesLifted,
    columnsLifted,
  };
}

function hasStatus(subresources: unknown): boolean {
  return isObject(subresources) && subresources.status !== undefined && subresources.status !== null;
}

function schemasOf(crd: Entry): JsonSchema[] {
  return versionsOf(crd).flatMap((v) => (isObject(v.schema) && isObject(v.schema.openAPIV3Schema) ? [v.schema.openAPIV3Schema] : []));
}

function hasDefaults(crd: Entry): boolean {
  return schemasOf(crd).some((s) => schemaHas(s, (n) => n.default !== undefined && n.default !== null));
}

/** specHasKubernetesExtensions: any x-kubernetes-* extension set (preserve-unknown-fields even as false). */
function hasKubernetesExtensions(crd: Entry): boolean {
  const set = (v: unknown): boolean => v !== undefined && v !== null;
  return schemasOf(crd).some((s) =>
    schemaHas(s, (n) =>
      n['x-kubernetes-embedded-resource'] === true ||
      set(n['x-kubernetes-preserve-unknown-fields']) ||
      n['x-kubernetes-int-or-string'] === true ||
      (Array.isArray(n['x-kubernetes-list-map-keys']) && n['x-kubernetes-list-map-keys'].length > 0) ||
      set(n['x-kubernetes-list-type']) ||
      (Array.isArray(n['x-kubernetes-validations']) && n['x-kubernetes-validations'].length > 0),
    ),
  );
}

/** A Go pointer as %#v prints it; kube shows a real address, which nothing can reproduce. */
function goPointer(type: string, set: boolean): string {
  return `(*${type})(${set ? '0xc000000000' : 'nil'})`;
}

/** Go's %#v of the internal versions list kube shows with "must contain unique version names". */
function shownVersions(view: InternalSpec): string {
  const one = (v: Entry): string => {
    const warning = typeof v.deprecationWarning === 'string' ? goPointer('string', true) : goPointer('string', false);
    const schema = goPointer('apiextensions.CustomResourceValidation', !view.schemaLifted && isObject(v.schema));
    const subresources = goPointer('apiextensions.CustomResourceSubresources', !view.subresourcesLifted && isObject(v.subresources));
    const columns = !view.columnsLifted && Array.isArray(v.additionalPrinterColumns) ? '[]apiextensions.CustomResourceColumnDefinition{...}' : '[]apiextensions.CustomResourceColumnDefinition(nil)';
    return `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(text(v, 'name'))}, Served:${v.served === true}, Storage:${v.storage === true}, Deprecated:${v.deprecated === true}, DeprecationWarning:${warning}, Schema:${schema}, Subresources:${subresources}, AdditionalPrinterColumns:${columns}}`;
  };
  return `[]apiextensions.CustomResourceDefinitionVersion{${view.versions.map(one).join(', ')}}`;
}

function validateGroupAndScope(spec: Entry): FieldError[] {
  const errors: FieldError[] = [];
  const group = text(spec, 'group');
  const problems = dns1123Subdomain(group);
  if (group === '') errors.push(required('spec.group'));
  else if (problems.length > 0) errors.push(invalidValue('spec.group', group, problems.join(',')));
  else if (group.split('.').length < 2) errors.push(invalidValue('spec.group', group, 'should be a domain with at least one dot'));
  const scope = text(spec, 'scope');
  if (scope === '') errors.push(required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errors.push(notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  return errors;
}

function validateVersions(view: InternalSpec, req: Requirements, opts: CrdValidationOptions): FieldError[] {
  const errors: FieldError[] = [];
  view.versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    const name = text(v, 'name');
    const problems = dns1035Label(name);
    if (problems.length > 0) errors.push(invalidValue(`${path}.name`, name, problems.join(',')));
    errors.push(...validateDeprecationWarning(v, path));
    const subresources = view.subresourcesLifted ? view.subresources : v.subresources;
    if (!view.schemaLifted) errors.push(...validateSchemaValidation(v.schema, `${path}.schema`, hasStatus(subresources), req.schema, opts));
    if (!view.subresourcesLifted) errors.push(...validateSubresources(v.subresources, `${path}.subresources`));
    if (!view.columnsLifted && Array.isArray(v.additionalPrinterColumns)) v.additionalPrinterColumns.forEach((c, j) => errors.push(...validateColumn(c, `${path}.additionalPrinterColumns[${j}]`)));
  });
  return errors;
}

function validateSchemaPresence(view: InternalSpec, preserveUnknownFields: boolean, req: Requirements): FieldError[] {
  const hasSchema = (s: unknown): boolean => isObject(s) && isObject(s.openAPIV3Schema);
  if (hasSchema(view.validation)) return [];
  const errors: FieldError[] = [];
  view.versions.forEach((v, i) => {
    const path = `spec.versions[${i}].schema.openAPIV3Schema`;
    if (req.openApiSchema && !hasSchema(v.schema)) errors.push(required(path, 'schemas are required'));
    else if (!req.openApiSchema && !preserveUnknownFields && v.served === true && !hasSchema(v.schema)) errors.push(required(path, 'because otherwise all fields are pruned'));
  });
  return errors;
}

function validateSpec(crd: Entry, req: Requirements, opts: CrdValidationOptions): FieldError[] {
  const spec = entry(crd.spec);
  const view = internalSpec(crd);
  const preserve = spec.preserveUnknownFields === true;
  const schemaReq: SchemaRequirements = { ...req.schema, requireStructuralSchema: req.schema.requireStructuralSchema || !preserve || hasDefaults(crd) || hasKubernetesExtensions(crd) };
  const effective: Requirements = { ...req, schema: schemaReq };
  const errors = validateGroupAndScope(spec);
  errors.push(...validateSchemaPresence(view, preserve, req));
  if (hasDefaults(crd) && preserve) errors.push(invalidValue('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
  errors.push(...validateVersions(view, effective, opts));
  const names = view.versions.map((v) => text(v, 'name'));
  if (new Set(names).size !== names.length) errors.push(invalidShown('spec.versions', shownVersions(view), 'must contain unique version names'));
  if (view.versions.filter((v) => v.storage === true).length !== 1) errors.push(invalidShown('spec.versions', shownVersions(view), 'must have exactly one version marked as storage version'));
  const first = view.versions[0];
  if (first !== undefined) {
    const problems = dns1035Label(text(first, 'name'));
    if (problems.length > 0) errors.push(invalidValue('spec.version', text(first, 'name'), problems.join(',')));
  }
  errors.push(...requiredNames(spec.names, 'spec.names'), ...validateNames(spec.names, 'spec.names'));
  const anyStatus = hasStatus(view.subresources) || view.versions.some((v) => hasStatus(v.subresources));
  errors.push(...validateSchemaValidation(view.validation, 'spec.validation', anyStatus, schemaReq, opts));
  errors.push(...validateSubresources(view.subresources, 'spec.subresources'));
  if (Array.isArray(view.columns)) view.columns.forEach((c, j) => errors.push(...validateColumn(c, `spec.additionalPrinterColumns[${j}]`)));
  const conversion = entry(spec.conversion);
  const strategy = text(conversion, 'strategy');
  if (isObject(spec.conversion) && strategy !== 'None' && preserve) errors.push(invalidValue('spec.conversion.strategy', strategy, 'must be None if spec.preserveUnknownFields is true'));
  errors.push(...validateConversion(spec.conversion, req.recognizedConversionReviewVersion));
  return errors;
}

/** ValidateCustomResourceDefinitionStoredVersions: the storage version stored, every stored version still listed. */
function validateStoredVersions(crd: Entry): FieldError[] {
  const status = entry(crd.status);
  const stored = Array.isArray(status.storedVersions) ? status.storedVersions.map(String) : undefined;
  const path = 'status.storedVersions';
  if (stored === undefined || stored.length === 0) return [invalidShown(path, stored === undefined ? '[]string(nil)' : '[]string{}', 'must have at least one stored version')];
  const errors: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versionsOf(crd)) {
    const name = text(v, 'name');
    if (v.storage === true && !remaining.has(name)) errors.push(invalidShown(path, goStrings(stored), `must have the storage version ${name}`));
    remaining.delete(name);
  }
  for (const [v, i] of remaining) errors.push(invalidValue(`${path}[${i}]`, v, 'must appear in spec.versions'));
  return errors;
}

const approvalAnnotation = 'api-approved.kubernetes.io';

function isProtectedGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

function approvalState(crd: Entry): { state: 'missing' | 'bypassed' | 'invalid' | 'approved'; reason: string } {
  const annotations = entry(entry(crd.metadata).annotations);
  const value = annotations[approvalAnnotation];
  if (typeof value !== 'string') return { state: 'missing', reason: `protected groups must have approval annotation "${approvalAnnotation}", see https://github.com/kubernetes/enhancements/pull/1111` };
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: '' };
  try {
    const url = parseGoUrl(value);
    if (url.scheme === '' && !value.startsWith('/')) throw new Error('not a request URI');
  } catch {
    return { state: 'invalid', reason: `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111` };
  }
  return { state: 'approved', reason: '' };
}

/** validateAPIApproval: CRDs in *.k8s.io and *.kubernetes.io carry the API approval annotation. */
function validateApiApproval(crd: Entry, old: Entry | undefined): FieldError[] {
  if (!isProtectedGroup(text(entry(crd.spec), 'group'))) return [];
  const next = approvalState(crd);
  if (old !== undefined && approvalState(old).state === next.state) return [];
  const path = `metadata.annotations[${approvalAnnotation}]`;
  const value = entry(entry(crd.metadata).annotations)[approvalAnnotation];
  if (next.state === 'missing') return [required(path, next.reason)];
  if (next.state === 'invalid') return [invalidValue(path, value, next.reason)];
  return [];
}

function validatePreserveUnknownFields(crd: Entry, old: Entry | undefined): FieldError[] {
  if (old !== undefined && entry(old.spec).preserveUnknownFields === true) return [];
  if (entry(crd.spec).preserveUnknownFields !== true) return [];
  return [invalidValue('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
}

function validateMetadataName(crd: Entry): FieldError[] {
  const name = text(entry(crd.metadata), 'name');
  const spec = entry(crd.spec);
  const expected = `${text(entry(spec.names), 'plural')}.${text(spec, 'group')}`;
  return name !== '' && name !== expected ? [invalidValue('metadata.name', name, 'must be spec.names.plural+"."+spec.group')] : [];
}

/** What create and update both check after the spec: accepted names, stored versions, approval, preserveUnknownFields. */
function validateRest(crd: Entry, old: Entry | undefined): FieldError[] {
  return [
    ...validateNames(entry(crd.status).acceptedNames, 'status.acceptedNames'),
    ...validateStoredVersions(crd),
    ...validateApiApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}

/**
 * ValidateCustomResourceDefinition for a v1 CRD after defaulting and after the server set
 * status.storedVersions (kube's PrepareForCreate does): every field error kube reports, in kube's
 * paths and words. `opts.checkRules` compiles each schema's CEL rules.
 */
export function validateCrd(crd: KObject, opts: CrdValidationOptions = {}): FieldError[] {
  return [...validateMetadataName(crd), ...validateSpec(crd, createRequirements, opts), ...validateRest(crd, undefined)];
}

function isEstablished(crd: Entry): boolean {
  const conditions = Array.isArray(entry(crd.status).conditions) ? (entry(crd.status).conditions as unknown[]) : [];
  return conditions.some((c) => isObject(c) && c.type === 'Established' && c.status === 'True');
}

function hasUnprunedDefaults(s: JsonSchema): boolean {
  if (structuralConversionError(s) !== undefined || validateStructural(s, '').length > 0) return false;
  return validateDefaults(s, '', true).some((e) => e.message.endsWith(': must not have unknown fields'));
}

function hasNonStructural(s: JsonSchema): boolean {
  return structuralConversionError(s) !== undefined || validateStructural(s, '').length > 0;
}

/** The requirements of an update: kube does not tighten validation on what is already stored. */
function updateRequirements(old: Entry): Requirements {
  const oldSchemas = schemasOf(old);
  const conversion = entry(entry(old.spec).conversion);
  const reviewVersions = Array.isArray(entry(conversion.webhook).conversionReviewVersions) ? (entry(conversion.webhook).conversionReviewVersions as unknown[]) : [];
  return {
    recognizedConversionReviewVersion: !isObject(entry(old.spec).conversion) || hasValidConversionReviewVersionOrEmpty(reviewVersions),
    immutableNames: isEstablished(old),
    openApiSchema: versionsOf(old).every((v) => isObject(v.schema) && isObject(v.schema.openAPIV3Schema)),
    schema: {
      requireStructuralSchema: !oldSchemas.some(hasNonStructural),
      requireValidPropertyType: !oldSchemas.some(hasInvalidType),
      requirePrunedDefaults: !oldSchemas.some(hasUnprunedDefaults),
      requireAtomicSetType: !oldSchemas.some((s) => schemaHas(s, (n) => nonAtomicSet(n))),
      requireMapListKeysMapSetValidation: !oldSchemas.some((s) => schemaHas(s, (n) => mapListKeysMapSetChecks(n, '').length > 0)),
    },
  };
}

function nonAtomicSet(n: JsonSchema): boolean {
  if (n['x-kubernetes-list-type'] !== 'set' || !isObject(n.items)) return false;
  const items = n.items;
  if (items.type === 'array') return items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic';
  if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

/**
 * ValidateCustomResourceDefinitionUpdate: the create rules (relaxed where `old` already breaks
 * them), group and plural immutable, scope and kind immutable once the CRD is established.
 */
export function validateCrdUpdate(crd: KObject, old: KObject, opts: CrdValidationOptions = {}): FieldError[] {
  const req = updateRequirements(old);
  const errors = validateSpec(crd, req, opts);
  const spec = entry(crd.spec);
  const oldSpec = entry(old.spec);
  const names = entry(spec.names);
  const oldNames = entry(oldSpec.names);
  if (req.immutableNames) {
    if (text(spec, 'scope') !== text(oldSpec, 'scope')) errors.push(immutable('spec.scope', text(spec, 'scope')));
    if (text(names, 'kind') !== text(oldNames, 'kind')) errors.push(immutable('spec.names.kind', text(names, 'kind')));
  }
  if (text(spec, 'group') !== text(oldSpec, 'group')) errors.push(immutable('spec.group', text(spec, 'group')));
  if (text(names, 'plural') !== text(oldNames, 'plural')) errors.push(immutable('spec.names.plural', text(names, 'plural')));
  return [...errors, ...validateRest(crd, old)];
}
