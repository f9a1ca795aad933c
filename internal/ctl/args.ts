// Argument parsing shared by every orchctl command: node's parseArgs in strict mode, with its
// errors turned into usage errors (exit 2), and the small value parsers commands need.
import { parseArgs } from 'node:util';
import { CtlError, type CtlIo } from './command.ts';

/** The options a command accepts, in parseArgs' shape. */
export type OptionSpec = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string; readonly multiple?: boolean }>>;

/** What a command's arguments parsed to. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  readonly positionals: readonly string[];
}

/** Every command takes --help. */
const helpOption: OptionSpec = { help: { type: 'boolean', short: 'h' } };

/** The flags that may come anywhere before a command's or subcommand's name, each taking a value. */
export const connectionFlagsWithValue: ReadonlySet<string> = new Set(['--kubeconfig', '--context', '--endpoints', '--request-timeout']);

const connectionFlagOptions: OptionSpec = Object.fromEntries([...connectionFlagsWithValue].map((flag) => [flag.slice(2), { type: 'string' as const }]));

/** Parses `args` for `command`; an unknown flag or a missing value is a usage error naming the command's --help. */
export function parseCommandArgs(command: string, args: readonly string[], options: OptionSpec): ParsedArgs {
  try {
    // The connection flags are accepted (and unused) by commands that do not connect, as kubectl's global flags are: `orchctl --kubeconfig k snapshot status f` works.
    const { values, positionals } = parseArgs({ args: [...args], options: { ...connectionFlagOptions, ...helpOption, ...options }, strict: true, allowPositionals: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    throw new CtlError(`${parseErrorText(error as Error & { code?: string }, command)}; see orchctl ${command} --help`, 2);
  }
}

/** parseArgs' complaint in orchctl's words (its own text suggests `--` and cuts mid-thought). */
function parseErrorText(error: Error & { code?: string }, command: string): string {
  const flag = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${flag} for orchctl ${command}`;
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `flag ${flag.split(' ')[0] ?? flag} of orchctl ${command} needs a value`;
  return `orchctl ${command}: ${(error.message.split('\n')[0] ?? 'bad arguments').replace(/\.$/, '')}`;
}

/**
 * Where the first word that is not a connection flag (nor its value) is in `argv`, or -1: the
 * command's name, or within a group the subcommand's name (`orchctl --kubeconfig k member
 * --context c list`).
 */
export function nameIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (connectionFlagsWithValue.has(arg)) {
      i += 1;
      continue;
    }
    if (arg.startsWith('--') && connectionFlagsWithValue.has(arg.slice(0, arg.indexOf('=')))) continue;
    return i;
  }
  return -1;
}

/** `argv` without the name at `index`: the flags that came before it go after the rest, where the command parses them. */
export function withoutName(argv: readonly string[], index: number): string[] {
  return [...argv.slice(index + 1), ...argv.slice(0, index)];
}

/** A string option's value, or undefined. */
export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A boolean option's value (false when absent). */
export function booleanOption(parsed: ParsedArgs, name: string): boolean {
  return parsed.values[name] === true;
}

/** Throws a usage error unless there are between `min` and `max` positionals. */
export function requirePositionals(command: string, parsed: ParsedArgs, min: number, max: number, what: string): readonly string[] {
  const count = parsed.positionals.length;
  if (count < min) throw new CtlError(`orchctl ${command} needs ${what}; see orchctl ${command} --help`, 2);
  if (count > max) throw new CtlError(`orchctl ${command}: unexpected argument "${parsed.positionals[max]}"; see orchctl ${command} --help`, 2);
  return parsed.positionals;
}

/** One of `allowed` output formats, or a usage error. */
export function outputFormat<T extends string>(command: string, parsed: ParsedArgs, allowed: readonly T[], fallback: T): T {
  const value = stringOption(parsed, 'output') ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CtlError(`orchctl ${command}: output format "${value}" is not one of ${allowed.join(', ')}`, 2);
  }
  return value as T;
}

const durationUnitsMs: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration as kubectl writes them (`500ms`, `30s`, `5m`, `1h30m`), or a bare number of seconds.
 * Throws a usage error naming `flag`.
 */
export function parseDurationMs(text: string, flag: string): number {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) {
    throw new CtlError(`--${flag}: "${text}" is not a duration such as 500ms, 30s or 5m`, 2);
  }
  return Math.round(parts.reduce((total, p) => total + Number(p[1]) * (durationUnitsMs[p[2] ?? 's'] ?? 1000), 0));
}

/** Checks a `host:port` address; throws a usage error naming `flag`. */
export function parseHostPort(text: string, flag: string): string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || port < 1 || port > 65535) throw new CtlError(`--${flag}: "${text}" is not host:port`, 2);
  return text;
}

/** Parses `a=host:port,b=host:port` into a name -> address map; throws a usage error naming `flag`. */
export function parsePeerList(text: string, flag: string): Record<string, string> {
  const peers: Record<string, string> = {};
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? '' : item.slice(0, eq);
    if (name === '') throw new CtlError(`--${flag}: "${item}" is not name=host:port`, 2);
    if (name in peers) throw new CtlError(`--${flag}: ${name} is named twice; give each member once`, 2);
    const address = parseHostPort(item.slice(eq + 1), flag);
    const sharing = Object.keys(peers).find((other) => peers[other] === address);
    if (sharing !== undefined) throw new CtlError(`--${flag}: ${sharing} and ${name} have the same address ${address}; give each member its own peer address`, 2);
    peers[name] = address;
  }
  if (Object.keys(peers).length === 0) throw new CtlError(`--${flag} names no member: give name=host:port,...`, 2);
  return peers;
}

/** Prints `usage` when the command was asked for --help; true when it was (the command then exits 0). */
export function printedHelp(parsed: ParsedArgs, io: Pick<CtlIo, 'stdout'>, usage: string): boolean {
  if (parsed.values['help'] !== true) return false;
  io.stdout(usage);
  return true;
}
