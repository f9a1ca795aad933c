/**
 * The script file format: commands, each followed by a `----` line and its expected output,
 * ended by a blank line (or the end of the file). Lines starting with `#` between blocks are
 * comments. A first line `# skip: <reason>` skips the whole script.
 */

/** One command of a script with the output it is expected to print. */
export interface ScriptBlock {
  /** 1-based line number of the command, for error messages. */
  readonly line: number;
  readonly command: string;
  readonly expected: readonly string[];
  /** 0-based [start, end) line range of the expected output, for rewriting in place. */
  readonly outputStart: number;
  readonly outputEnd: number;
}

/** A parsed script: its blocks, its raw lines (for rewriting) and a skip reason if any. */
export interface Script {
  readonly lines: readonly string[];
  readonly blocks: readonly ScriptBlock[];
  readonly skipReason: string | null;
}

/** Parses a script; throws with `file:line` on a malformed block. */
export function parseScript(file: string, text: string): Script {
  const lines = text.replace(/\n$/, '').split('\n');
  const blocks: ScriptBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.startsWith('#')) {
      i++;
      continue;
    }
    if (lines[i + 1] !== '----') throw new Error(`${file}:${i + 2}: expected "----" after command "${line}"`);
    let j = i + 2;
    while (j < lines.length && (lines[j] ?? '') !== '') j++;
    blocks.push({ line: i + 1, command: line.trim(), expected: lines.slice(i + 2, j), outputStart: i + 2, outputEnd: j });
    i = j;
  }
  const skip = /^# skip: (.+)$/.exec(lines[0] ?? '');
  return { lines, blocks, skipReason: skip?.[1] ?? null };
}

/** Returns the script text with each block's output replaced by `actual[k]` (same order as blocks). */
export function rewriteScript(script: Script, actual: readonly (readonly string[])[]): string {
  const lines = [...script.lines];
  for (let k = script.blocks.length - 1; k >= 0; k--) {
    const block = script.blocks[k];
    const output = actual[k];
    if (block === undefined || output === undefined) continue;
    lines.splice(block.outputStart, block.outputEnd - block.outputStart, ...output);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A readable line diff of expected vs actual (longest common subsequence), with `-` for
 * expected-only and `+` for actual-only lines.
 */
export function lineDiff(expected: readonly string[], actual: readonly string[]): string {
  const n = expected.length;
  const m = actual.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let a = n - 1; a >= 0; a--) {
    for (let b = m - 1; b >= 0; b--) {
      const row = lcs[a] as number[];
      row[b] = expected[a] === actual[b] ? (lcs[a + 1]?.[b + 1] ?? 0) + 1 : Math.max(lcs[a + 1]?.[b] ?? 0, row[b + 1] ?? 0);
    }
  }
  const out: string[] = [];
  let a = 0;
  let b = 0;
  while (a < n || b < m) {
    if (a < n && b < m && expected[a] === actual[b]) {
      out.push(`  ${expected[a++]}`);
      b++;
    } else if (a < n && (b >= m || (lcs[a + 1]?.[b] ?? 0) >= (lcs[a]?.[b + 1] ?? 0))) {
      out.push(`- ${expected[a++]}`);
    } else {
      out.push(`+ ${actual[b++]}`);
    }
  }
  return out.join('\n');
}
