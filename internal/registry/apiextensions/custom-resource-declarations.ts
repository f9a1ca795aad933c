// The declarations a CustomResourceDefinition makes: one per served version, as the built-in
// kinds' are, so that routing, discovery, OpenAPI, tables, field selectors, server-side apply and
// the generic store serve custom objects the way they serve built-in ones. All versions keep one
// set of objects at the storage version (conversion `None`: only apiVersion changes); defaults
// are applied on every write and on every read from storage, as kube's structural defaulting is.
import type { KObject, ResourceDeclaration, ScaleDeclaration, Strategy, Subresources } from '../schema/declaration.ts';
import { jsonEqual } from '../../patch/json-value.ts';
import { crdTopLevelFields } from './crd-field-schema.ts';
import { asObject, crdSpec, crdVersions, servedNames, storageVersionOf, versionSchema } from './crd-versions.ts';
import { customPrinterColumns } from './printer-columns.ts';
import { customSchemaChecks } from './custom-schema-checks.ts';

type Json = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The sub-resources a version declares (status, scale). */
function subresourcesOf(version: Json): Subresources | undefined {
  const subs = asObject(version.subresources);
  if (subs === undefined) return undefined;
  const scale = asObject(subs.scale);
  const scaleDecl: ScaleDeclaration | undefined = scale === undefined ? undefined : {
    ...(text(scale.specReplicasPath) !== undefined ? { specReplicasPath: text(scale.specReplicasPath) } : {}),
    ...(text(scale.statusReplicasPath) !== undefined ? { statusReplicasPath: text(scale.statusReplicasPath) } : {}),
    ...(text(scale.labelSelectorPath) !== undefined ? { labelSelectorPath: text(scale.labelSelectorPath) } : {}),
  };
  const out: { status?: boolean; scale?: ScaleDeclaration } = {};
  if (asObject(subs.status) !== undefined) out.status = true;
  if (scaleDecl !== undefined) out.scale = scaleDecl;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Everything but metadata (and status when it has its own sub-resource): what counts for metadata.generation. */
function generationContent(obj: KObject, statusApart: boolean): Json {
  const { metadata: _metadata, apiVersion: _apiVersion, kind: _kind, ...rest } = obj;
  if (statusApart) delete rest.status;
  return rest;
}

/** The strategy of one version of a custom kind. */
function customStrategy(schema: Json | undefined, statusApart: boolean): Strategy {
  return {
    allowCreateOnUpdate: false,
    prepareForCreate(obj) {
      if (statusApart) delete obj.status;
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      const changed = !jsonEqual(generationContent(obj, statusApart), generationContent(old, statusApart));
      obj.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
    },
    applyDefaults(obj) {
      if (schema !== undefined) customSchemaChecks.applyDefaults(schema, obj);
    },
    validateCreate: (obj) => (schema === undefined ? [] : customSchemaChecks.validate(schema, obj, undefined)),
    validateUpdate: (obj, old) => (schema === undefined ? [] : customSchemaChecks.validate(schema, obj, old)),
  };
}

/** The collection every version's objects live in: keyed by the CRD's group and plural. */
function collectionOf(crd: KObject, group: string, plural: string, namespaced: boolean): ResourceDeclaration {
  return { group, version: storageVersionOf(crd) ?? '', kind: servedNames(crd).kind, plural, singular: '', namespaced, nameRule: 'subdomain', description: '', fields: {}, strategy: {}, custom: true };
}

/** The declaration of one version of a CRD (served or not). */
function declarationOf(crd: KObject, version: Json): ResourceDeclaration {
  const spec = crdSpec(crd);
  const group = text(spec.group) ?? '';
  const names = servedNames(crd);
  const namespaced = spec.scope !== 'Cluster';
  const storage = storageVersionOf(crd);
  const name = String(version.name);
  const schema = versionSchema(version);
  const top = crdTopLevelFields(schema);
  const subresources = subresourcesOf(version);
  const statusApart = subresources?.status === true;
  return {
    group, version: name, kind: names.kind, plural: names.plural, singular: names.singular,
    ...(names.listKind !== `${names.kind}List` ? { listKind: names.listKind } : {}),
    ...(names.shortNames.length > 0 ? { shortNames: names.shortNames } : {}),
    ...(names.categories.length > 0 ? { categories: names.categories } : {}),
    namespaced, nameRule: 'subdomain', description: top.description,
    fields: top.fields, required: top.required,
    ...(top.preserveUnknown ? { preserveUnknownFields: true } : {}),
    ...(subresources !== undefined ? { subresources } : {}),
    printerColumns: customPrinterColumns(version),
    strategy: customStrategy(schema, statusApart),
    custom: true,
    ...(version.deprecated === true ? { deprecationWarning: text(version.deprecationWarning) ?? `${group}/${name} ${names.kind} is deprecated` } : {}),
    storedAs: {
      decl: collectionOf(crd, group, names.plural, namespaced),
      // The stored form differs only in apiVersion; it is serialized at once, never changed.
      toStored: (obj) => ({ ...obj, apiVersion: `${group}/${storage ?? name}` }),
      fromStored: (obj) => {
        if (schema !== undefined) customSchemaChecks.applyDefaults(schema, obj);
        return obj;
      },
    },
  };
}

/** The declarations of a CRD's served versions, in the CRD's order. */
export function customResourceDeclarations(crd: KObject): ResourceDeclaration[] {
  return crdVersions(crd).filter((v) => v.served === true && typeof v.name === 'string').map((version) => declarationOf(crd, version));
}

/** The declaration of the CRD's storage version, served or not: what reaches every object of the kind. */
export function storageDeclaration(crd: KObject): ResourceDeclaration | undefined {
  const storage = crdVersions(crd).find((v) => v.storage === true && typeof v.name === 'string');
  return storage === undefined ? undefined : declarationOf(crd, storage);
}

/** What decides how a CRD is served: a change elsewhere (status conditions, metadata) needs no new declarations. */
export function servingKey(crd: KObject, terminating: boolean): string {
  return JSON.stringify([crd.metadata.uid, crd.spec, (crd.status as Record<string, unknown> | undefined)?.acceptedNames, terminating]);
}
