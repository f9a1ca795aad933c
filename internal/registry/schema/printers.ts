import type { KObject, PrinterColumn } from './declaration.ts';

/** A duration in kubectl's short human form (`5s`, `3m20s`, `4h`, `12d`). */
export function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 24 * 8) return h % 24 === 0 ? `${Math.floor(h / 24)}d` : `${Math.floor(h / 24)}d${h % 24}h`;
  if (h < 24 * 365 * 2) return `${Math.floor(h / 24)}d`;
  const days = Math.floor(h / 24);
  if (h < 24 * 365 * 8) return `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

/** The age of an object from its creationTimestamp. */
export function age(obj: KObject, now: Date): string {
  const created = obj.metadata.creationTimestamp;
  if (!created) return '<unknown>';
  return humanDuration(now.getTime() - Date.parse(created));
}

/** Reads a nested field by dotted path; undefined when any step is missing. */
export function field(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A number field, or 0. */
export function num(obj: unknown, path: string): number {
  const v = field(obj, path);
  return typeof v === 'number' ? v : 0;
}

/** A string field, or the fallback. */
export function text(obj: unknown, path: string, fallback = ''): string {
  const v = field(obj, path);
  return typeof v === 'string' ? v : fallback;
}

/** The NAME column every table starts with. */
export const nameColumn: PrinterColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace.',
  cell: (o) => o.metadata.name ?? '',
};

/** The AGE column. */
export const ageColumn: PrinterColumn = {
  name: 'Age',
  type: 'string',
  description: 'Time since the object was created.',
  cell: (o, now) => age(o, now),
};

/** The default table: Name and Created At, for kinds without their own columns. */
export const defaultColumns: readonly PrinterColumn[] = [
  nameColumn,
  { name: 'Created At', type: 'date', description: 'The time the object was created.', cell: (o) => o.metadata.creationTimestamp ?? '' },
];

/**
 * Formats a label selector object as kubectl shows it (`app=web,tier in (a,b)`); a plain map of
 * labels (a ReplicationController's selector) reads as its matchLabels.
 */
export function selectorString(selector: unknown): string {
  if (typeof selector !== 'object' || selector === null) return '';
  if (!('matchLabels' in selector) && !('matchExpressions' in selector)) selector = { matchLabels: selector };
  const s = selector as { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    if (e.operator === 'In') parts.push(`${e.key} in (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}
