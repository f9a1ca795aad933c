// --enable-bootstrap-token-auth: a Go bool flag, off by default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlagError, parseReplicaFlags } from '../../../../internal/replica/parse-flags.ts';

const parse = (...args: string[]) => parseReplicaFlags(['--name', 'orch-1', ...args]).authentication.options.enableBootstrapTokenAuth;

test('--enable-bootstrap-token-auth is off by default and read as Go reads booleans', () => {
  assert.equal(parse(), undefined);
  assert.equal(parse('--enable-bootstrap-token-auth'), true);
  assert.equal(parse('--enable-bootstrap-token-auth=T'), true);
  assert.equal(parse('--enable-bootstrap-token-auth=false'), undefined);
  assert.throws(() => parse('--enable-bootstrap-token-auth=on'), (e: unknown) => e instanceof FlagError && /^--enable-bootstrap-token-auth: "on"/.test(e.message));
});
