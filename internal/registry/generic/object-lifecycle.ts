import { randomInt, randomUUID } from 'node:crypto';
import type { KObject, ResourceDeclaration, SubresourceView } from '../schema/declaration.ts';
import { badRequest, invalid } from '../errors/status-error.ts';
import { toCauses, type FieldError } from '../schema/field-errors.ts';
import { validateObjectMeta } from '../schema/metadata-validation.ts';
import { recordWriteFields } from './managed-fields.ts';
import { jsonEqual } from '../../patch/json-value.ts';
import type { UserInfo } from '../../authn/user-info.ts';

// Kubernetes' alphabet for generated names: no vowels (no words) and no look-alike characters.
const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const generatedSuffixLength = 5;
const generatedPrefixMax = 63 - generatedSuffixLength;

// The text of the last second formatted: a write stamps two or three times, and most writes of a
// busy second share it (toISOString is a few microseconds each time).
let formattedSecond = NaN;
let formattedText = '';

/** The current time as RFC 3339 with whole seconds, as Kubernetes stores timestamps. */
export function nowTimestamp(now: Date = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== formattedSecond) {
    // toISOString always ends in `.sssZ`: cut the milliseconds (no regular expression per write).
    formattedText = `${now.toISOString().slice(0, -5)}Z`;
    formattedSecond = second;
  }
  return formattedText;
}

/** A name from `generateName`: the prefix (cut to leave room) plus five random characters. */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < generatedSuffixLength; i++) suffix += nameAlphabet[randomInt(nameAlphabet.length)];
  return prefix.slice(0, generatedPrefixMax) + suffix;
}

/** Who is writing, for managedFields. */
export interface WriteContext {
  readonly fieldManager: string;
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly now: Date;
  /** managedFields computed by server-side apply (read after the patch function ran): stored as given instead of recording an Update. */
  readonly appliedManagedFields?: () => readonly unknown[];
}

function recordFields(obj: KObject, old: KObject | null, decl: ResourceDeclaration, ctx: WriteContext): void {
  if (ctx.appliedManagedFields !== undefined) {
    const entries = ctx.appliedManagedFields();
    if (entries.length === 0) delete obj.metadata.managedFields;
    else obj.metadata.managedFields = [...entries];
    return;
  }
  recordWriteFields(obj, old, decl, { fieldManager: ctx.fieldManager, apiVersion: ctx.apiVersion, time: nowTimestamp(ctx.now), ...(ctx.subresource ? { subresource: ctx.subresource } : {}) });
}

/** Server-owned metadata of a new object: name from generateName, uid, timestamps, generation, managedFields. */
export function prepareCreateMetadata(obj: KObject, decl: ResourceDeclaration, ctx: WriteContext): void {
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp(ctx.now);
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (!decl.namespaced) delete meta.namespace;
  if (decl.tracksGeneration) meta.generation = 1;
  else delete meta.generation;
  recordFields(obj, null, decl, ctx);
}

/** Carries server-owned metadata from the stored object into an update and records the write. */
export function prepareUpdateMetadata(obj: KObject, old: KObject, decl: ResourceDeclaration, ctx: WriteContext): void {
  const meta = obj.metadata;
  const oldMeta = old.metadata;
  for (const f of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generateName'] as const) {
    if (oldMeta[f] === undefined) delete meta[f];
    else (meta as Record<string, unknown>)[f] = oldMeta[f];
  }
  delete meta.selfLink;
  if (decl.tracksGeneration) {
    // Order-blind: a Protobuf or Go client's body lists fields in another order than the stored object.
    const specChanged = !jsonEqual(obj.spec ?? null, old.spec ?? null);
    meta.generation = (oldMeta.generation ?? 1) + (specChanged ? 1 : 0);
  } else delete meta.generation;
  recordFields(obj, old, decl, ctx);
}

/** Throws a 422 Invalid StatusError when there are field errors. */
export function throwIfInvalid(decl: ResourceDeclaration, group: string, obj: KObject, errors: readonly FieldError[]): void {
  if (errors.length > 0) throw invalid(decl.kind, group, obj.metadata.name ?? obj.metadata.generateName ?? '', toCauses(errors));
}

/**
 * Runs a strategy step. Strategies read partly described structures (`open` schemas), so a
 * TypeError there means a field of an unexpected shape in the request: a 400, not a 500.
 */
function shapeGuard<T>(decl: ResourceDeclaration, step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof TypeError) throw badRequest(`the ${decl.kind} has a field of an unexpected shape: ${err.message}`);
    throw err;
  }
}

/** Runs the create strategy: prepare, defaults, validation (metadata and kind), canonical form. */
export function runCreateStrategy(decl: ResourceDeclaration, group: string, obj: KObject, requester?: UserInfo): string[] {
  return shapeGuard(decl, () => createSteps(decl, group, obj, requester));
}

/** Runs the update strategy against the stored object; a write through a view sub-resource validates the update by the view's rules. */
export function runUpdateStrategy(decl: ResourceDeclaration, group: string, obj: KObject, old: KObject, view?: SubresourceView): string[] {
  return shapeGuard(decl, () => updateSteps(decl, group, obj, old, view));
}

function createSteps(decl: ResourceDeclaration, group: string, obj: KObject, requester: UserInfo | undefined): string[] {
  const s = decl.strategy;
  s.prepareForCreate?.(obj, requester);
  s.applyDefaults?.(obj);
  throwIfInvalid(decl, group, obj, [...validateObjectMeta(obj, decl), ...(s.validate?.(obj) ?? []), ...(s.validateCreate?.(obj) ?? [])]);
  s.canonicalize?.(obj);
  return s.warnings?.(obj) ?? [];
}

function updateSteps(decl: ResourceDeclaration, group: string, obj: KObject, old: KObject, view: SubresourceView | undefined): string[] {
  const s = decl.strategy;
  s.prepareForUpdate?.(obj, old);
  s.applyDefaults?.(obj);
  const updateErrors = view === undefined ? (s.validateUpdate?.(obj, old) ?? []) : view.validateUpdate(obj, old);
  throwIfInvalid(decl, group, obj, [...validateObjectMeta(obj, decl), ...(s.validate?.(obj) ?? []), ...updateErrors]);
  s.canonicalize?.(obj);
  return s.warnings?.(obj, old) ?? [];
}
