/**
 * Runs interaction scripts (in the style of etcd raft's datadriven `testdata/*.txt`): each
 * command drives a scripted cluster, and what it prints is compared with the expected block
 * under it. With `rewrite`, the expected blocks are regenerated in place instead.
 *
 * Format: a command line, `----`, the expected output lines, a blank line. `#` lines between
 * blocks are comments; a first line `# skip: <reason>` skips the script.
 * `log-level none` makes later commands print just `ok` (except status and raft-log) until
 * `log-level debug`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseCommandLine } from './args.ts';
import { runCommand } from './commands.ts';
import { InteractionEnv } from './env.ts';
import { lineDiff, parseScript, rewriteScript } from './script.ts';

/** The outcome of one script: passed, skipped (with why), or failed with a readable message. */
export type ScriptResult = { readonly status: 'passed' } | { readonly status: 'skipped'; readonly reason: string } | { readonly status: 'failed'; readonly message: string };

const alwaysPrinted = new Set(['status', 'raft-log']);

function runBlock(env: InteractionEnv, command: string, quiet: { value: boolean }): string[] {
  const cmd = parseCommandLine(command);
  env.out = [];
  if (cmd.name === 'log-level') {
    const level = cmd.positional[0];
    if (level !== 'none' && level !== 'debug') throw new Error('log-level: want none or debug');
    quiet.value = level === 'none';
    return ['ok'];
  }
  runCommand(env, cmd);
  const out = quiet.value && !alwaysPrinted.has(cmd.name) ? [] : env.out;
  if (out.some((l) => l.trim() === '')) throw new Error('assert: output has a blank line');
  return out.length === 0 ? ['ok'] : out;
}

/** Runs the script at `path`; with `rewrite` true, writes the actual output back as the expected one. */
export function runScriptFile(path: string, opts: { rewrite: boolean }): ScriptResult {
  const name = basename(path);
  const script = parseScript(name, readFileSync(path, 'utf8'));
  if (script.skipReason !== null && !opts.rewrite) return { status: 'skipped', reason: script.skipReason };
  const env = new InteractionEnv();
  const quiet = { value: false };
  const actual: string[][] = [];
  const failures: string[] = [];
  for (const block of script.blocks) {
    let out: string[];
    try {
      out = runBlock(env, block.command, quiet);
    } catch (err) {
      const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
      return { status: 'failed', message: `${name}:${block.line}: ${block.command}\nthrew: ${detail}` };
    }
    actual.push(out);
    if (out.join('\n') !== block.expected.join('\n')) {
      failures.push(`${name}:${block.line}: ${block.command}\n${lineDiff(block.expected, out)}`);
    }
  }
  if (opts.rewrite) {
    writeFileSync(path, rewriteScript(script, actual));
    return { status: 'passed' };
  }
  if (failures.length === 0) return { status: 'passed' };
  const more = failures.length > 1 ? `\n(${failures.length - 1} later command(s) also differ)` : '';
  return { status: 'failed', message: `output differs (- expected, + actual)\n${failures[0]}${more}` };
}
