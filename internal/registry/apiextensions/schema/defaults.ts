// Structural defaulting of apiextensions-apiserver 1.28 (schema/defaulting.Default): a field the
// object lacks takes its schema's `default`, and so does one that is null where the schema does not
// allow null; defaults apply inside list items and additionalProperties values too. Defaults are
// deep-copied, so objects never share them. Used on every write and on every read from storage.
import { additionalProperties, deepCopy, hasDefault, isNullable, isObject, itemsSchema, properties, type JsonSchema } from './schema-props.ts';

function isNonNullableNull(x: unknown, s: JsonSchema | undefined): boolean {
  return x === null && s !== undefined && !isNullable(s);
}

/**
 * Applies the defaults of `schema` to `value` in place (a custom object and its version's
 * `openAPIV3Schema`). Expects pruning to have dropped non-nullable nulls without a default.
 */
export function applyDefaults(value: unknown, schema: JsonSchema | undefined): void {
  if (schema === undefined) return;
  if (isObject(value)) {
    const props = properties(schema);
    for (const [k, prop] of Object.entries(props)) {
      if (!hasDefault(prop)) continue;
      if (!(k in value) || isNonNullableNull(value[k], prop)) value[k] = deepCopy(prop.default);
    }
    const additional = additionalProperties(schema)?.schema;
    for (const k of Object.keys(value)) {
      const prop = props[k];
      if (prop !== undefined) applyDefaults(value[k], prop);
      else if (additionalProperties(schema) !== undefined) {
        if (isNonNullableNull(value[k], additional)) value[k] = deepCopy(additional?.default ?? null);
        applyDefaults(value[k], additional);
      }
    }
  } else if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    value.forEach((v, i) => {
      if (isNonNullableNull(v, items)) value[i] = deepCopy(items?.default ?? null);
      applyDefaults(value[i], items);
    });
  }
}
