// deploy/README.md is followed by people on real hosts: every orchctl command in it must exist with
// the flags it is given, and every orch-apiserver flag it shows must be one orch-apiserver takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/cluster/build-layout.ts';
import { certsCommand } from '../../../internal/ctl/certs.ts';
import type { CtlCommand, CtlIo } from '../../../internal/ctl/command.ts';
import { commands } from '../../../internal/ctl/dispatcher.ts';
import { parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';
import { execArgv, parseEnvironmentFile, parseUnitFile, unitSetting } from './systemd-unit.ts';

const readme = readFileSync(join(repoRoot, 'deploy/README.md'), 'utf8');
// certs is registered in the dispatcher by its owner; counted once either way.
const allCommands: CtlCommand[] = [...commands.filter((c) => c.name !== 'certs'), certsCommand];

/** The README's lines of shell, continuations joined, and its inline `code` spans. */
function shellSnippets(text: string): string[] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').replace(/\\\n\s*/g, ' ').split('\n')).flat();
  const inline = [...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? '').replace(/\s+/g, ' '));
  return [...blocks, ...inline];
}

/** Every `orchctl ...` invocation: its words up to a comment or the end of the snippet. */
function orchctlInvocations(text: string): string[][] {
  return shellSnippets(text).flatMap((snippet) => [...snippet.matchAll(/(?:^|[\s;(])orchctl ([^#;|&]*)/g)].map((m) => (m[1] ?? '').trim().split(/\s+/)));
}

async function helpOf(command: CtlCommand, args: readonly string[]): Promise<string> {
  let out = '';
  const io: CtlIo = { stdout: (t) => { out += t; }, stderr: () => undefined, env: {}, cwd: '/' };
  assert.equal(await command.run([...args, '--help'], io), 0);
  return out;
}

test('every orchctl command in deploy/README.md exists and takes the flags it is given there', async () => {
  const invocations = orchctlInvocations(readme);
  assert.ok(invocations.length >= 15, `found ${invocations.length} orchctl commands`);
  const seen = new Set<string>();
  for (const words of invocations) {
    const [name = '', sub = ''] = words;
    const command = allCommands.find((c) => c.name === name);
    assert.ok(command, `orchctl ${words.join(' ')}: no command ${name}`);
    const isGroup = command.usage.includes('Subcommands:');
    const usage = await helpOf(command, isGroup ? [sub] : []);
    seen.add(isGroup ? `${name} ${sub}` : name);
    for (const flag of words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0] ?? '')) {
      assert.ok(usage.includes(`${flag} `) || usage.includes(`${flag}\n`), `orchctl ${words.join(' ')}: ${flag} is not in its --help`);
    }
  }
  for (const used of ['certs ca', 'certs replica', 'certs admin', 'status', 'member add', 'member remove', 'snapshot save', 'snapshot restore', 'leader transfer']) {
    assert.ok(seen.has(used), `the guide shows orchctl ${used}`);
  }
});

test('the orch-apiserver flags deploy/README.md shows are ones orch-apiserver takes', () => {
  const unit = parseUnitFile(readFileSync(join(repoRoot, 'deploy/systemd/orch-apiserver.service'), 'utf8'));
  const env = parseEnvironmentFile(readFileSync(join(repoRoot, 'deploy/systemd/orch-apiserver.env.example'), 'utf8'));
  // Each ORCH_EXTRA_FLAGS the guide suggests, on the unit's command line.
  const extras = [...readme.matchAll(/ORCH_EXTRA_FLAGS=([^`\n]+)`/g), ...readme.matchAll(/`(--(?:v|audit-policy-file)[^`]*)`/g)].map((m) => m[1] ?? '');
  assert.ok(extras.length >= 4, `found ${extras.length} ORCH_EXTRA_FLAGS examples`);
  for (const extra of extras) {
    const argv = execArgv(unitSetting(unit, 'Service', 'ExecStart'), { ...env, ORCH_EXTRA_FLAGS: extra }).slice(2);
    try {
      parseReplicaFlags(argv);
    } catch (error) {
      // A file the example names that is not on this machine is fine: the flag was taken.
      assert.match((error as Error).message, /ENOENT/, `ORCH_EXTRA_FLAGS=${extra}`);
    }
  }
  // The container's command line: the words after the image name.
  const podman = shellSnippets(readme).find((line) => line.startsWith('podman run'));
  assert.ok(podman);
  const flags = (podman.split(' orch ')[1] ?? '').trim().split(/\s+/).map((w) => w.replace(/^'(.*)'$/, '$1'));
  assert.equal(parseReplicaFlags(flags).name, 'orch-1');
});
