// Label selectors as objects (meta/v1 LabelSelector: matchLabels and matchExpressions) and plain
// label maps, as kinds use them in their specs: validated as apimachinery's ValidateLabelSelector
// does, matched as LabelSelectorAsSelector's selector matches, and printed as kubectl shows them.
import { forbidden, invalidValue, required, type FieldError } from './field-errors.ts';
import { validateLabels } from './metadata-validation.ts';
import { labelValue, qualifiedName } from './name-validation.ts';

interface Requirement {
  readonly key?: unknown;
  readonly operator?: unknown;
  readonly values?: unknown;
}

/** The parts of a LabelSelector object, tolerant of missing ones. */
function partsOf(selector: unknown): { matchLabels: Record<string, string>; matchExpressions: Requirement[] } {
  const s = (typeof selector === 'object' && selector !== null ? selector : {}) as { matchLabels?: unknown; matchExpressions?: unknown };
  const matchLabels = typeof s.matchLabels === 'object' && s.matchLabels !== null ? (s.matchLabels as Record<string, string>) : {};
  const matchExpressions = Array.isArray(s.matchExpressions) ? (s.matchExpressions as Requirement[]) : [];
  return { matchLabels, matchExpressions };
}

function valuesOf(r: Requirement): string[] {
  return Array.isArray(r.values) ? r.values.map(String) : [];
}

/** Validates a LabelSelector object at `path` (absent is valid), with apimachinery's messages. */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (selector === undefined || selector === null) return [];
  const { matchLabels, matchExpressions } = partsOf(selector);
  const errors = validateLabels(matchLabels, `${path}.matchLabels`);
  matchExpressions.forEach((r, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = valuesOf(r);
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length === 0) errors.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length > 0) errors.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errors.push(invalidValue(`${at}.operator`, r.operator ?? '', 'not a valid selector operator'));
    }
    const key = typeof r.key === 'string' ? r.key : '';
    for (const p of qualifiedName(key)) errors.push(invalidValue(`${at}.key`, key, p));
    values.forEach((v, j) => {
      for (const p of labelValue(v)) errors.push(invalidValue(`${at}.values[${j}]`, v, p));
    });
  });
  return errors;
}

/** Whether an object or a LabelSelector has no requirement at all (it selects everything). */
export function isEmptySelector(selector: unknown): boolean {
  const { matchLabels, matchExpressions } = partsOf(selector);
  return Object.keys(matchLabels).length === 0 && matchExpressions.length === 0;
}

/**
 * Whether `labels` satisfy a LabelSelector object. As LabelSelectorAsSelector: an absent selector
 * selects nothing, an empty one everything.
 */
export function labelSelectorMatches(selector: unknown, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (selector === undefined || selector === null) return false;
  const l = labels ?? {};
  const { matchLabels, matchExpressions } = partsOf(selector);
  if (!Object.entries(matchLabels).every(([k, v]) => Object.hasOwn(l, k) && l[k] === v)) return false;
  return matchExpressions.every((r) => {
    const key = String(r.key);
    const has = Object.hasOwn(l, key);
    const values = valuesOf(r);
    if (r.operator === 'In') return has && values.includes(l[key] ?? '');
    if (r.operator === 'NotIn') return !has || !values.includes(l[key] ?? '');
    if (r.operator === 'Exists') return has;
    if (r.operator === 'DoesNotExist') return !has;
    return false;
  });
}

/** Whether `labels` carry every pair of a plain label map (an empty map matches everything). */
export function labelMapMatches(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  return Object.entries(selector).every(([k, v]) => Object.hasOwn(l, k) && l[k] === v);
}

/** A plain label map as Go's labels.FormatLabels prints it: `a=b,c=d` sorted by key, or `<none>`. */
export function formatLabels(labels: unknown): string {
  if (typeof labels !== 'object' || labels === null) return '<none>';
  const text = Object.keys(labels).sort().map((k) => `${k}=${String((labels as Record<string, unknown>)[k])}`).join(',');
  return text === '' ? '<none>' : text;
}

/**
 * A LabelSelector object as metav1.FormatLabelSelector prints it: requirements sorted by key, set
 * values sorted, `<none>` when it has none.
 */
export function formatLabelSelector(selector: unknown): string {
  const { matchLabels, matchExpressions } = partsOf(selector);
  const terms: [string, string][] = Object.entries(matchLabels).map(([k, v]) => [k, `${k}=${v}`]);
  for (const r of matchExpressions) {
    const key = String(r.key);
    const values = valuesOf(r).sort().join(',');
    if (r.operator === 'In') terms.push([key, `${key} in (${values})`]);
    else if (r.operator === 'NotIn') terms.push([key, `${key} notin (${values})`]);
    else if (r.operator === 'Exists') terms.push([key, key]);
    else if (r.operator === 'DoesNotExist') terms.push([key, `!${key}`]);
  }
  const text = terms.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, t]) => t).join(',');
  return text === '' ? '<none>' : text;
}
