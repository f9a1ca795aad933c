/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether two objects are equal apart from resourceVersion and managedFields (a no-op write). */
export function sameContent(a: Record<string, unknown> & { metadata: object }, b: Record<string, unknown> & { metadata: object }): boolean {
  const strip = (o: Record<string, unknown> & { metadata: object }) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined, managedFields: undefined } });
  return stableStringify(strip(a)) === stableStringify(strip(b));
}
