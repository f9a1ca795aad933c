// Go's regexp (RE2) as kube-openapi runs a schema's `pattern`: the syntax is Go's (flag groups
// anywhere, `\pL`, `[[:alpha:]]`, `\Q...\E`, `\x{41}`, repeat counts up to 1000), matching is in
// linear time (no pattern freezes the server, as a backtracking engine would on `^(a+)+$`), and a
// pattern RE2 refuses is refused in Go's words, as kube refuses the CRD. Compiled patterns are kept.
import { RE2JS } from '@bufbuild/re2';

/** A compiled pattern (`test`: whether it matches anywhere in the text, as Go's MatchString), or Go's compile error for it. */
export type GoRegexp = { readonly re: { test(text: string): boolean } } | { readonly error: string };

/** Patterns compiled lately (schemas repeat them on every object); bounded, oldest out first. */
const compiled = new Map<string, GoRegexp>();
const compiledMax = 1_000;

function compile(pattern: string): GoRegexp {
  try {
    const re = RE2JS.compile(pattern);
    return { re: { test: (text: string) => re.test(text) } };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Compiles a Go regular expression, or returns Go's error text for it. */
export function compileGoRegexp(pattern: string): GoRegexp {
  let found = compiled.get(pattern);
  if (found === undefined) {
    found = compile(pattern);
    compiled.set(pattern, found);
    if (compiled.size > compiledMax) compiled.delete(compiled.keys().next().value as string);
  }
  return found;
}
