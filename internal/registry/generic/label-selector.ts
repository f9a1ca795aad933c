import { badRequest } from '../errors/status-error.ts';

/** One requirement of a label selector. */
export interface LabelRequirement {
  readonly key: string;
  readonly op: 'in' | 'notin' | 'exists' | '!exists';
  readonly values: readonly string[];
}

/** A parsed label selector: all requirements must hold. Empty matches everything. */
export type LabelSelector = readonly LabelRequirement[];

const keyRe = /^([A-Za-z0-9][-A-Za-z0-9_./]*)?[A-Za-z0-9]$/;
const valueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Splits on commas that are not inside parentheses. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

function checkKey(key: string, selector: string): string {
  if (!keyRe.test(key)) throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${selector}"`);
  return key;
}

function checkValue(value: string, selector: string): string {
  if (!valueRe.test(value) || value.length > 63) throw badRequest(`unable to parse requirement: invalid label value "${value}" in selector "${selector}"`);
  return value;
}

function parseTerm(term: string, selector: string): LabelRequirement {
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(term);
  if (set) {
    const values = (set[3] ?? '').split(',').map((v) => checkValue(v.trim(), selector));
    return { key: checkKey(set[1] ?? '', selector), op: set[2] as 'in' | 'notin', values };
  }
  const eq = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (eq) {
    const value = checkValue(eq[3] ?? '', selector);
    return { key: checkKey(eq[1] ?? '', selector), op: eq[2] === '!=' ? 'notin' : 'in', values: [value] };
  }
  if (term.startsWith('!')) return { key: checkKey(term.slice(1).trim(), selector), op: '!exists', values: [] };
  return { key: checkKey(term, selector), op: 'exists', values: [] };
}

/** Parses `a=b,c!=d,e in (x,y),f notin (z),g,!h`. Throws a 400 StatusError when malformed. */
export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (text === undefined || text.trim() === '') return [];
  return splitTerms(text).map((t) => parseTerm(t, text));
}

/** Whether `labels` satisfy every requirement. */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  return selector.every((r) => {
    const has = Object.hasOwn(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case '!exists':
        return !has;
      case 'in':
        return has && r.values.includes(l[r.key] ?? '');
      case 'notin':
        return !has || !r.values.includes(l[r.key] ?? '');
    }
  });
}
