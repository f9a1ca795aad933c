// Wording helpers shared by the checks' messages, so every list reads as kube writes it.

/** `"a", "b"` — items quoted as written (no escaping), '' for none. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** The singular for exactly one, else the plural. */
export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` / `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** Compares by UTF-8 bytes, as Go sorts strings. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The values sorted as Go's sort.Strings sorts them (by UTF-8 bytes). */
export function sortedAsGo(values: Iterable<string>): string[] {
  return [...values].sort(byteOrder);
}

/** The distinct values, sorted as Go's sets.String.List() sorts them. */
export function sortedUnique(values: Iterable<string>): string[] {
  return sortedAsGo(new Set(values));
}

const goEscapes: Readonly<Record<string, string>> = {
  '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\',
};

/** A string quoted as Go's `%q` quotes it (control characters escaped, printable text as is). */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    const escaped = goEscapes[ch];
    if (escaped !== undefined) out += escaped;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Compares strings as Go's `<` does (by UTF-8 bytes). */
export function compareGoStrings(a: string, b: string): number {
  return byteOrder(a, b);
}
