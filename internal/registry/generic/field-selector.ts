import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { badRequest } from '../errors/status-error.ts';

/** One term of a field selector: the object's value for `field` must (or must not) be `value`. */
export interface FieldRequirement {
  /** The label as the request wrote it. */
  readonly field: string;
  readonly equal: boolean;
  /** The value, unescaped. */
  readonly value: string;
  /** The object's value for the label, as kube-apiserver's field set renders it. */
  readonly valueOf: (obj: KObject) => string;
}

/** A parsed field selector, its terms in sorted order; all must hold. Empty selects everything. */
export type FieldSelector = readonly FieldRequirement[];

type Labels = Readonly<Record<string, (obj: KObject) => string>>;

const metadataName = (o: KObject): string => o.metadata.name ?? '';
const metadataNamespace = (o: KObject): string => o.metadata.namespace ?? '';

/**
 * The labels a kind takes and how it refuses others, as kube-apiserver converts field labels: the
 * kind's own conversion (its declaration's `fieldSelectors`), a custom resource's (metadata.name,
 * and metadata.namespace when namespaced), or apimachinery's default for kinds without one.
 */
function conversionOf(decl: ResourceDeclaration): { labels: Labels; refuse: (label: string) => string } {
  const unsupported = (label: string) => `field label not supported: ${label}`;
  if (decl.fieldSelectors) return { labels: decl.fieldSelectors, refuse: unsupported };
  if (decl.custom) return { labels: decl.namespaced ? { 'metadata.name': metadataName, 'metadata.namespace': metadataNamespace } : { 'metadata.name': metadataName }, refuse: unsupported };
  return {
    labels: { 'metadata.name': metadataName, 'metadata.namespace': metadataNamespace },
    refuse: (label) => `${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
  };
}

/** Splits on commas not escaped by a backslash; escapes stay in the terms. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The label, operator and raw value of a term, split at the first operator (`!=`, `==`, then `=`). */
function splitTerm(term: string): { field: string; op: string; raw: string } | null {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return { field: term.slice(0, i), op, raw: term.slice(i + op.length) };
    }
  }
  return null;
}

/** Undoes fields.EscapeValue: `\\`, `\,` and `\=` are the only escapes; a bare `,` or `=` is refused. */
function unescapeValue(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? '';
    if (c === '\\') {
      const next = raw[i + 1];
      if (next === undefined) throw badRequest('invalid field selector: invalid escape sequence: \\');
      if (next !== '\\' && next !== ',' && next !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${String.fromCodePoint(raw.codePointAt(i + 1) ?? 0)}`);
      out += next;
      i++;
    } else if (c === ',' || c === '=') {
      throw badRequest(`invalid field selector: unescaped character in value: ${c.charCodeAt(0)}`);
    } else out += c;
  }
  return out;
}

/**
 * Parses a field selector as kube-apiserver does (apimachinery's fields.ParseSelector, then the
 * kind's field label conversion): terms split on unescaped commas and sorted, each `label=value`,
 * `label==value` or `label!=value` with no trimming of spaces. Throws a 400 StatusError with
 * upstream's message for a malformed term (the first in sorted order), then for a label the kind
 * does not take.
 */
export function parseFieldSelector(text: string | undefined, decl: ResourceDeclaration): FieldSelector {
  if (text === undefined || text === '') return [];
  const terms = splitTerms(text).filter((t) => t !== '').sort();
  const parsed = terms.map((term) => {
    const split = splitTerm(term);
    if (!split) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    return { field: split.field, equal: split.op !== '!=', value: unescapeValue(split.raw) };
  });
  const { labels, refuse } = conversionOf(decl);
  return parsed.map((r) => {
    const valueOf = Object.hasOwn(labels, r.field) ? labels[r.field] : undefined;
    if (!valueOf) throw badRequest(refuse(r.field));
    return { ...r, valueOf };
  });
}

/** Whether the object satisfies every term. */
export function matchesFields(selector: FieldSelector, obj: KObject): boolean {
  return selector.every((r) => (r.valueOf(obj) === r.value) === r.equal);
}

/** The single name a selector pins down with `metadata.name=` (its first such term), if any. */
export function selectedName(selector: FieldSelector): string | undefined {
  return selector.find((r) => r.field === 'metadata.name' && r.equal)?.value;
}

/** A value written so that the selector parser reads it back unchanged (fields.EscapeValue). */
function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * The field selector of a request that names one object in its path (a watch of `.../{name}`), as
 * kube-apiserver's list handler makes it: no selector becomes `metadata.name=<name>`; a selector
 * stays as it is when it requires that very name, and is otherwise a 400. The selector is
 * checked (parse, labels) first.
 */
export function fieldSelectorNaming(text: string | undefined, decl: ResourceDeclaration, name: string): string {
  const selector = parseFieldSelector(text, decl);
  if (selector.length === 0) return `metadata.name=${escapeFieldValue(name)}`;
  if (selectedName(selector) !== name) throw badRequest("fieldSelector metadata.name doesn't match requested name");
  return text ?? '';
}
