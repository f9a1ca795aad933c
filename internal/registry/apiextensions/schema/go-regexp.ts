// Go's regexp (RE2) patterns run on JavaScript's engine: the syntax CRD patterns use in both is
// kept; Go-only syntax is translated (leading flag groups, `(?P<name>`, `\A`, `\z`); syntax RE2
// refuses (lookaround, backreferences) is refused with Go's words, as kube refuses the CRD.

/** A translated pattern, or Go's compile error for it. */
export type GoRegexp = { readonly re: RegExp } | { readonly error: string };

const perlSyntax = /\(\?(<=|<!|=|!)/;
const backreference = /(^|[^\\])(\\\\)*\\([1-9])/;

/** Compiles a Go regular expression as JavaScript, or returns Go's error text for it. */
export function compileGoRegexp(pattern: string): GoRegexp {
  const lookaround = perlSyntax.exec(pattern);
  if (lookaround !== null) return { error: `error parsing regexp: invalid or unsupported Perl syntax: \`(?${lookaround[1] ?? ''}\`` };
  const backref = backreference.exec(pattern);
  if (backref !== null) return { error: `error parsing regexp: invalid escape sequence: \`\\${backref[3] ?? ''}\`` };
  let source = pattern;
  let flags = '';
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading !== null) {
    flags = [...new Set((leading[1] ?? '').replace('U', ''))].join('');
    source = source.slice(leading[0].length);
  }
  source = source.replaceAll('(?P<', '(?<').replaceAll('\\A', '^').replaceAll('\\z', '$(?![\\s\\S])');
  if (/\\p/.test(source)) flags += 'u';
  try {
    return { re: new RegExp(source, flags) };
  } catch (err) {
    return { error: `error parsing regexp: ${(err as Error).message}` };
  }
}
