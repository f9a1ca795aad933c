/**
 * Parsing of one command line: `name pos1 "quoted pos" key=value key=(a,b,c)`.
 */

/** A command line split into its name, positional arguments and key=value options. */
export interface CommandLine {
  readonly name: string;
  readonly positional: readonly string[];
  readonly options: ReadonlyMap<string, string>;
}

function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let quoted = false;
  let depth = 0;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '(') depth++;
    else if (!quoted && ch === ')') depth--;
    if (!quoted && depth === 0 && /\s/.test(ch)) {
      if (current !== '') tokens.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (quoted || depth !== 0) throw new Error(`unbalanced quotes or parentheses in "${line}"`);
  if (current !== '') tokens.push(current);
  return tokens;
}

function unquote(s: string): string {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s;
}

/** Splits a command line; throws on unbalanced quotes or parentheses. */
export function parseCommandLine(line: string): CommandLine {
  const [name, ...rest] = tokenize(line);
  if (name === undefined) throw new Error('empty command');
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (const token of rest) {
    const eq = /^([a-z][a-z0-9-]*)=(.*)$/.exec(token);
    if (eq?.[1] !== undefined && eq[2] !== undefined) options.set(eq[1], unquote(eq[2]));
    else positional.push(unquote(token));
  }
  return { name, positional, options };
}

/** Reads `key=(a,b c)` as a list; `[]` when absent or `()`. */
export function listOption(cmd: CommandLine, key: string): string[] {
  const raw = cmd.options.get(key);
  if (raw === undefined) return [];
  const inner = raw.replace(/^\(/, '').replace(/\)$/, '');
  return inner.split(/[,\s]+/).filter((s) => s !== '');
}

/** Reads a non-negative integer option, or `fallback` when absent; throws on garbage. */
export function intOption(cmd: CommandLine, key: string, fallback: number): number {
  const raw = cmd.options.get(key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${key}=${raw} is not a non-negative integer`);
  return n;
}

/** Reads a boolean option (`true`/`false`), or `fallback` when absent. */
export function boolOption(cmd: CommandLine, key: string, fallback: boolean): boolean {
  const raw = cmd.options.get(key);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new Error(`${key}=${raw} is not true or false`);
  return raw === 'true';
}

/** The positional argument at `i`; throws naming the command when it is missing. */
export function positionalArg(cmd: CommandLine, i: number, what: string): string {
  const value = cmd.positional[i];
  if (value === undefined) throw new Error(`${cmd.name}: missing ${what}`);
  return value;
}
