// ValidateDefaults of apiextensions-apiserver 1.28 (schema/defaulting): every `default` in a
// structural schema validates against the schema it sits in, is pruned (no fields its schema does
// not know), and, inside an embedded resource's metadata, leaves that metadata valid. Defaults
// under additionalProperties are not visited (kube does not either). A default that passes all that
// is checked against its node's x-kubernetes-validations rules by the caller's `checkDefaultRules`.
import { invalidShown, type FieldError } from '../../schema/field-errors.ts';
import { validateEmbeddedResources } from './embedded-meta.ts';
import { goShown } from './go-values.ts';
import { prune } from './prune.ts';
import { deepCopy, hasDefault, isEmbedded, itemsSchema, jsonEqual, properties, type JsonSchema } from './schema-props.ts';
import { validateAgainstSchema } from './validate-object.ts';

/**
 * Evaluates the x-kubernetes-validations rules of `schema` (and below) on a default `value`, errors
 * named under `path` (the `.default` field); `isResourceRoot` for an embedded resource's node.
 */
export type CheckDefaultRules = (schema: JsonSchema, value: unknown, path: string, isResourceRoot: boolean) => readonly FieldError[];

/** Where a default inside resource metadata lands: the embedded resource and the keys leading to it. */
interface MetaContext {
  readonly inside: boolean;
  readonly route: readonly (string | number)[];
}

function aggregate(errors: readonly FieldError[]): string {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  return texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
}

/** The embedded object a metadata default would produce: TypeMeta set, the default at its place. */
function surroundingObject(route: readonly (string | number)[], value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = { apiVersion: 'validation/v1', kind: 'Validation' };
  let cursor: Record<string, unknown> | unknown[] = root;
  route.forEach((key, i) => {
    const last = i === route.length - 1;
    const next: unknown = last ? value : typeof route[i + 1] === 'number' ? [] : {};
    (cursor as Record<string | number, unknown>)[key] = next;
    if (!last) cursor = next as Record<string, unknown>;
  });
  return root;
}

function validateDefault(s: JsonSchema, rootSchema: JsonSchema, path: string, meta: MetaContext, opts: DefaultOptions): FieldError[] {
  const value = s.default;
  const at = `${path}.default`;
  if (meta.inside) {
    const obj = surroundingObject(meta.route, deepCopy(value));
    const metaErrors = validateEmbeddedResources(obj, rootSchema, '', true);
    if (metaErrors.length > 0) return [invalidShown(at, goShown(value), `must result in valid metadata: ${aggregate(metaErrors)}`)];
    return withRules(validateAgainstSchema(value, s, at, false), s, value, at, opts);
  }
  const errors: FieldError[] = [];
  if (opts.requirePruned) {
    const pruned = deepCopy(value);
    prune(pruned, s, isEmbedded(s));
    if (!jsonEqual(pruned, value)) errors.push(invalidShown(at, goShown(value), 'must not have unknown fields'));
  }
  const embeddedErrors = validateEmbeddedResources(value, s, at, isEmbedded(s));
  if (embeddedErrors.length > 0) return [...errors, ...embeddedErrors];
  return [...errors, ...withRules(validateAgainstSchema(value, s, at, false), s, value, at, opts)];
}

/** The schema errors of a default, else its rules' (kube evaluates rules only on an otherwise valid default). */
function withRules(schemaErrors: FieldError[], s: JsonSchema, value: unknown, at: string, opts: DefaultOptions): FieldError[] {
  if (schemaErrors.length > 0 || opts.checkRules === undefined) return schemaErrors;
  return [...opts.checkRules(s, deepCopy(value), at, isEmbedded(s))];
}

/** How defaults are checked: pruning required (not when the stored CRD already had unpruned ones), rules. */
interface DefaultOptions {
  readonly requirePruned: boolean;
  readonly checkRules: CheckDefaultRules | undefined;
}

function walk(s: JsonSchema, rootSchema: JsonSchema, path: string, meta: MetaContext, opts: DefaultOptions): FieldError[] {
  let context = meta;
  let root = rootSchema;
  if (isEmbedded(s)) {
    context = { inside: false, route: [] };
    root = s;
  }
  const errors: FieldError[] = hasDefault(s) ? validateDefault(s, root, path, context, opts) : [];
  const items = itemsSchema(s);
  if (items !== undefined) errors.push(...walk(items, root, `${path}.items`, { inside: context.inside, route: [...context.route, 0] }, opts));
  for (const [k, sub] of Object.entries(properties(s))) {
    const inside = context.inside || (isEmbedded(s) && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    errors.push(...walk(sub, root, `${path}.properties[${k}]`, { inside, route: [...context.route, k] }, opts));
  }
  return errors;
}

/**
 * The problems with the defaults in a CRD version's structural `schema` (the resource root,
 * reported under `path`): invalid against their schema, not pruned, or breaking embedded metadata.
 */
export function validateDefaults(schema: JsonSchema, path: string, requirePruned = true, checkRules?: CheckDefaultRules): FieldError[] {
  const root = isEmbedded(schema) ? schema : { ...schema, 'x-kubernetes-embedded-resource': true };
  return walk(root, root, path, { inside: false, route: [] }, { requirePruned, checkRules });
}
