// Go's `%q` formatting, which kube's messages use for names and lists: clients and people compare
// these messages with kube-apiserver's character for character.

function escapeRune(codePoint: number): string {
  switch (codePoint) {
    case 0x07: return '\\a';
    case 0x08: return '\\b';
    case 0x0c: return '\\f';
    case 0x0a: return '\\n';
    case 0x0d: return '\\r';
    case 0x09: return '\\t';
    case 0x0b: return '\\v';
    case 0x5c: return '\\\\';
    case 0x22: return '\\"';
  }
  if (codePoint < 0x20 || codePoint === 0x7f) return `\\x${codePoint.toString(16).padStart(2, '0')}`;
  // Go prints printable runes as they are; the invisible ones below as escapes.
  if ((codePoint >= 0x80 && codePoint < 0xa0) || codePoint === 0xad) return `\\u${codePoint.toString(16).padStart(4, '0')}`;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return '\\ufffd';
  return String.fromCodePoint(codePoint);
}

/** A string as Go's strconv.Quote (`%q`) writes it. */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) out += escapeRune(ch.codePointAt(0) ?? 0);
  return `${out}"`;
}

/** A list of strings as Go's `%q` writes a []string: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/**
 * Errors joined as apimachinery's aggregate prints them: one error alone, several as
 * `[a, b]`, the same message only once.
 */
export function aggregateMessage(errors: readonly Error[]): string {
  const seen = new Set<string>();
  const messages: string[] = [];
  for (const e of errors) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    messages.push(e.message);
  }
  return messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(', ')}]`;
}
