// apiVersion and kind as apimachinery's schema package reads and prints them in messages.

/** A group and version (`apps/v1` → apps, v1; `v1` → '', v1). */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** schema.ParseGroupVersion, with an unparsable value (two slashes) read as empty, as GetObjectKind does. */
export function parseGroupVersion(apiVersion: string): GroupVersion {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return { group: '', version: '' };
}

/** GroupVersion.String(): `group/version`, or the version alone for the core group. */
export function showGroupVersion(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** GroupVersionKind.String(): `group/version, Kind=kind` (the slash kept for the core group). */
export function showGroupVersionKind(apiVersion: string, kind: string): string {
  const gv = parseGroupVersion(apiVersion);
  return `${gv.group}/${gv.version}, Kind=${kind}`;
}

/** The string field of an object, or '' (unstructured's GetAPIVersion, GetKind, GetName...). */
export function stringField(obj: unknown, field: string): string {
  if (typeof obj !== 'object' || obj === null) return '';
  const value = (obj as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : '';
}

/** Go's %T of a decoded JSON value. */
export function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}
