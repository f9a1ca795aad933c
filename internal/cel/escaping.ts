// Property names as expression identifiers: Kubernetes escapes names that are not valid CEL
// identifiers (k8s.io/apiserver/pkg/cel/escaping.go); names that cannot be escaped are not visible.

/** Words CEL reserves; a property with one of these names is reached as `__{word}__`. */
export const celReservedWords: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const escapable = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;
const escapeSequences: Readonly<Record<string, string>> = { '__': '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/**
 * The identifier a property is reached by in an expression, or undefined when the name cannot be
 * escaped (it starts with a digit, or holds a character outside `[a-zA-Z0-9_.-/]`).
 */
export function escapePropertyName(name: string): string | undefined {
  if (!escapable.test(name)) return undefined;
  if (celReservedWords.has(name)) return `__${name}__`;
  return name.replace(/__|[.\-/]/g, (s) => escapeSequences[s] ?? s);
}

const unescapeSequences: Readonly<Record<string, string>> = { '__underscores__': '__', '__dot__': '.', '__dash__': '-', '__slash__': '/' };

/** The property name an escaped identifier stands for, or undefined when it is not a valid escape. */
export function unescapePropertyName(ident: string): string | undefined {
  if (ident.length > 4 && ident.startsWith('__') && ident.endsWith('__')) {
    const inner = ident.slice(2, -2);
    if (celReservedWords.has(inner)) return inner;
  }
  const name = ident.replace(/__underscores__|__dot__|__dash__|__slash__/g, (s) => unescapeSequences[s] ?? s);
  return escapePropertyName(name) === ident ? name : undefined;
}
