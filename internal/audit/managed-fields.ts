// omitManagedFields (kube's copyWithoutManagedFields): an object, each item of a list, each row
// object of a Table, without metadata.managedFields. The value given is never changed.

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stripOne(value: unknown): unknown {
  if (!isFields(value) || !isFields(value.metadata) || !('managedFields' in value.metadata)) return value;
  const { managedFields: _dropped, ...metadata } = value.metadata;
  return { ...value, metadata };
}

/** `value` without managed fields (a copy where something was removed, else `value` itself). */
export function withoutManagedFields(value: unknown): unknown {
  if (!isFields(value)) return value;
  let out = stripOne(value) as Fields;
  if (Array.isArray(out.items)) out = { ...out, items: out.items.map(stripOne) };
  if (out.kind === 'Table' && Array.isArray(out.rows)) {
    out = { ...out, rows: out.rows.map((row: unknown) => (isFields(row) && row.object !== undefined ? { ...row, object: stripOne(row.object) } : row)) };
  }
  return out;
}
