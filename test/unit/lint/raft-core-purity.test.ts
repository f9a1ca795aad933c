// The simulation replays a seed exactly only if raft/core takes time, randomness and I/O as
// inputs. This pins down that the lint rule refuses each way nondeterminism could creep in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function problemsIn(source: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  assert.ok(result, 'eslint returned no result');
  return result.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const impure: Record<string, string> = {
  'a node: import': "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n",
  'a bare fs import': "import * as fs from 'fs';\nexport const f = fs;\n",
  'a crypto import': "import { randomBytes } from 'node:crypto';\nexport const f = randomBytes;\n",
  'a net import': "import * as net from 'node:net';\nexport const f = net;\n",
  'Math.random': 'export const r = Math.random();\n',
  'Date.now': 'export const t = Date.now();\n',
  'new Date': 'export const t = new Date();\n',
  'setTimeout': 'export function f(): void { setTimeout(() => undefined, 1); }\n',
  'setInterval': 'export function f(): void { setInterval(() => undefined, 1); }\n',
  'an async function': 'export async function f(): Promise<number> { return 1; }\n',
  'a Promise': 'export const p = Promise.resolve(1);\n',
  'process': 'export const e = process.env;\n',
  'an import from outside the core': "import { x } from '../node.ts';\nexport const y = x;\n",
};

for (const [what, source] of Object.entries(impure)) {
  test(`lint refuses ${what} under raft/core`, async () => {
    const problems = await problemsIn(source, 'raft/core/planted-impurity.ts');
    assert.ok(problems.some((p) => /no-restricted/.test(p)), `expected a purity error, got: ${problems.join('; ')}`);
  });
}

test('lint allows the same code outside raft/core', async () => {
  const problems = await problemsIn(impure['Math.random'] ?? '', 'raft/planted-driver-code.ts');
  assert.deepEqual(problems.filter((p) => /no-restricted/.test(p)), []);
});
