import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { commandIndex, commands, runOrchctl } from '../../../internal/ctl/dispatcher.ts';
import { recordingIo } from './stub-replicas.ts';

test('orchctl --help lists every command with its summary', async () => {
  const io = recordingIo(tmpdir());
  assert.equal(await runOrchctl(['--help'], io), 0);
  for (const command of commands) assert.match(io.out, new RegExp(`^  ${command.name}\\s+${command.summary.slice(0, 20).replace(/[()]/g, '.')}`, 'm'));
});

test('orchctl without a command prints the help and exits 2', async () => {
  const io = recordingIo(tmpdir());
  assert.equal(await runOrchctl([], io), 2);
  assert.match(io.out, /Commands:/);
});

test('every command and subcommand answers --help with its usage and exit 0', async () => {
  const groups: Record<string, string[]> = { member: ['list', 'add', 'remove', 'promote'], snapshot: ['save', 'status', 'restore'], leader: ['transfer'], certs: ['ca', 'replica', 'admin'] };
  for (const command of commands) {
    const io = recordingIo(tmpdir());
    assert.equal(await runOrchctl([command.name, '--help'], io), 0, command.name);
    assert.match(io.out, new RegExp(`orchctl ${command.name}`), command.name);
    for (const sub of groups[command.name] ?? []) {
      const subIo = recordingIo(tmpdir());
      assert.equal(await runOrchctl([command.name, sub, '--help'], subIo), 0, `${command.name} ${sub}`);
      assert.match(subIo.out, new RegExp(`^Usage: orchctl ${command.name} ${sub}`), `${command.name} ${sub}`);
      assert.match(io.out, new RegExp(`^  ${sub}\\s`, 'm'), `${command.name} --help lists ${sub}`);
    }
  }
});

test('an unknown command, subcommand or flag is a one-line usage error with exit 2', async () => {
  for (const argv of [['frobnicate'], ['member', 'frob'], ['status', '--bogus'], ['get'], ['member', 'add', 'orch-4'], ['snapshot', 'restore', 'f'], ['get', 'pods', 'p', '-A']]) {
    const io = recordingIo(tmpdir());
    assert.equal(await runOrchctl(argv, io), 2, argv.join(' '));
    assert.match(io.err, /^error: [^\n]+\n$/, argv.join(' '));
  }
});

test('a missing kubeconfig is a one-line error naming it and how to fix it, exit 1', async () => {
  const dir = tmpdir();
  const io = recordingIo(dir, {});
  assert.equal(await runOrchctl(['status', '--kubeconfig', '/nonexistent/kubeconfig'], io), 1);
  assert.match(io.err, /^error: no kubeconfig at \/nonexistent\/kubeconfig; pass --kubeconfig FILE or set KUBECONFIG[^\n]*\n$/);
});

test('the kubeconfig defaults to $KUBECONFIG, then .orch/kubeconfig under the working directory', async () => {
  const fromEnv = recordingIo('/somewhere', { KUBECONFIG: '/from/env:/other' });
  await runOrchctl(['status'], fromEnv);
  assert.match(fromEnv.err, /no kubeconfig at \/from\/env;/);
  const fallback = recordingIo('/somewhere', {});
  await runOrchctl(['status'], fallback);
  assert.match(fallback.err, /no kubeconfig at \/somewhere\/\.orch\/kubeconfig;/);
});

test('connection flags may come before the command name', () => {
  assert.equal(commandIndex(['--kubeconfig', 'k', '--context=c', 'status', '-o', 'json']), 3);
  assert.equal(commandIndex(['get', 'pods']), 0);
  assert.equal(commandIndex(['--kubeconfig', 'k']), -1);
});
