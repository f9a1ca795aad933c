import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { badRequest } from '../errors/status-error.ts';

/** One term of a field selector: `field=value` or `field!=value`. */
export interface FieldRequirement {
  readonly field: string;
  readonly equal: boolean;
  readonly value: string;
}

/** A parsed field selector; all terms must hold. */
export type FieldSelector = readonly FieldRequirement[];

function fieldGetters(decl: ResourceDeclaration): Record<string, (o: KObject) => string> {
  return {
    'metadata.name': (o) => o.metadata.name ?? '',
    'metadata.namespace': (o) => o.metadata.namespace ?? '',
    ...decl.fieldSelectors,
  };
}

/** Parses a field selector, rejecting (400) fields the resource does not support. */
export function parseFieldSelector(text: string | undefined, decl: ResourceDeclaration): FieldSelector {
  if (text === undefined || text.trim() === '') return [];
  const getters = fieldGetters(decl);
  return text.split(',').map((term) => {
    const m = /^\s*([^!=\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const field = m[1] ?? '';
    if (!getters[field]) throw badRequest(`field label not supported: ${field}`);
    return { field, equal: m[2] !== '!=', value: m[3] ?? '' };
  });
}

/** Whether the object satisfies every term. */
export function matchesFields(selector: FieldSelector, decl: ResourceDeclaration, obj: KObject): boolean {
  if (selector.length === 0) return true;
  const getters = fieldGetters(decl);
  return selector.every((r) => {
    const get = getters[r.field];
    const actual = get ? get(obj) : '';
    return (actual === r.value) === r.equal;
  });
}

/** The single name a selector pins down with `metadata.name=`, if any (lets a watch narrow its prefix). */
export function selectedName(selector: FieldSelector): string | undefined {
  return selector.find((r) => r.field === 'metadata.name' && r.equal)?.value;
}
