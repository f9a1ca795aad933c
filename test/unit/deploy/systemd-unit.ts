// Just enough of systemd's unit and environment file syntax to read deploy/systemd's files as
// systemd does: sections, `\` line continuations, quoting, and the two kinds of variable
// expansion of Exec lines (`${VAR}` within a word, a lone `$VAR` split at whitespace).

/** A unit file's settings: section name -> key -> values in order (a key may repeat). */
export type UnitFile = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/** Parses a unit file (systemd.syntax(7)): comments start with # or ;, a trailing \ continues the line. */
export function parseUnitFile(text: string): UnitFile {
  const sections = new Map<string, Map<string, string[]>>();
  let section: Map<string, string[]> | undefined;
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#') || line.startsWith(';'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = pending + line;
    pending = '';
    const header = /^\[(.+)\]$/.exec(whole);
    if (header) {
      section = new Map();
      sections.set(header[1] ?? '', section);
      continue;
    }
    const eq = whole.indexOf('=');
    if (section === undefined || eq < 0) throw new Error(`not a setting in a section: ${whole}`);
    const key = whole.slice(0, eq).trim();
    section.set(key, [...(section.get(key) ?? []), whole.slice(eq + 1).trim()]);
  }
  return sections;
}

/** The one value of `key` in `section`; throws when it is missing or repeated. */
export function unitSetting(unit: UnitFile, section: string, key: string): string {
  const values = unit.get(section)?.get(key) ?? [];
  if (values.length !== 1) throw new Error(`[${section}] ${key}: ${values.length} values`);
  return values[0] ?? '';
}

/** Parses an EnvironmentFile: KEY=VALUE lines, # comments, a value's surrounding quotes removed. */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`not KEY=VALUE: ${line}`);
    env[match[1] ?? ''] = (match[2] ?? '').replace(/^"(.*)"$|^'(.*)'$/, '$1$2');
  }
  return env;
}

/** Splits a command line into words at unquoted whitespace, removing the quotes. */
function splitWords(line: string): { text: string; quoted: boolean }[] {
  const words: { text: string; quoted: boolean }[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[3] === undefined ? { text: match[1] ?? match[2] ?? '', quoted: true } : { text: match[3], quoted: false });
  }
  return words;
}

/**
 * The argv an Exec line runs with `env` (systemd.service(5), "Command lines"): `${VAR}` is replaced
 * within its word; a word that is only `$VAR` becomes the value's whitespace-separated words (none
 * when empty). An unknown variable throws (systemd would expand it to nothing, silently).
 */
export function execArgv(line: string, env: Readonly<Record<string, string>>): string[] {
  const valueOf = (name: string): string => {
    const value = env[name];
    if (value === undefined) throw new Error(`$${name} is not in the environment file`);
    return value;
  };
  return splitWords(line).flatMap(({ text, quoted }) => {
    const lone = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(text);
    if (lone && !quoted) return valueOf(lone[1] ?? '').split(/\s+/).filter((w) => w !== '');
    return [text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => valueOf(name))];
  });
}
