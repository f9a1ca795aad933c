// Runs every interaction script under test/interaction/testdata. Each script pins down a
// sentence or figure of the Raft paper; `REWRITE=1` regenerates the expected output in place
// (review the diff before committing it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScriptFile } from '../../interaction/harness.ts';

const dir = fileURLToPath(new URL('../../interaction/testdata/', import.meta.url));
const rewrite = process.env['REWRITE'] === '1';
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort();

test('there are interaction scripts to run', () => {
  assert.ok(scripts.length > 0, `no scripts in ${dir}`);
});

for (const file of scripts) {
  test(`interaction script ${file}`, (t) => {
    const result = runScriptFile(join(dir, file), { rewrite });
    if (result.status === 'skipped') t.skip(result.reason);
    else if (result.status === 'failed') assert.fail(result.message);
  });
}

const wrongScript = [
  '# a comment',
  'add-nodes 1 voters=(1) index=2',
  '----',
  '1: term=0 vote=none commit=0 lastIndex=2 voters=(1) learners=()',
  '',
  'campaign 1',
  '----',
  '~ 1 is now candidate term=2 lead=none',
  '',
].join('\n');

test('a script whose output differs fails naming the file, the command line and the diff', (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'interaction-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const path = join(tmp, 'wrong.txt');
  writeFileSync(path, wrongScript);
  const result = runScriptFile(path, { rewrite: false });
  assert.equal(result.status, 'failed');
  assert.ok(result.status === 'failed');
  assert.match(result.message, /wrong\.txt:6: campaign 1/);
  assert.match(result.message, /^- ~ 1 is now candidate term=2 lead=none$/m);
  assert.match(result.message, /^\+ ~ 1 is now /m);
});

test('rewrite regenerates the expected output in place and keeps the comments', (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'interaction-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const path = join(tmp, 'wrong.txt');
  writeFileSync(path, wrongScript);
  assert.equal(runScriptFile(path, { rewrite: true }).status, 'passed');
  const text = readFileSync(path, 'utf8');
  assert.ok(text.startsWith('# a comment\n'));
  assert.doesNotMatch(text, /candidate term=2/);
  assert.equal(runScriptFile(path, { rewrite: false }).status, 'passed');
});

test('an unknown command fails with its line number', (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'interaction-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const path = join(tmp, 'bad.txt');
  writeFileSync(path, 'frobnicate 1\n----\nok\n');
  const result = runScriptFile(path, { rewrite: false });
  assert.ok(result.status === 'failed');
  assert.match(result.message, /bad\.txt:1: frobnicate 1[\s\S]*unknown command/);
});
