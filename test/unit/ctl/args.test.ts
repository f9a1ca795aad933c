import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandArgs, parseDurationMs, parseHostPort, parsePeerList, outputFormat } from '../../../internal/ctl/args.ts';
import { CtlError } from '../../../internal/ctl/command.ts';

function usageError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => error instanceof CtlError && error.exitCode === 2 && pattern.test(error.message));
}

test('durations take kubectl units or bare seconds', () => {
  assert.equal(parseDurationMs('30', 'x'), 30_000);
  assert.equal(parseDurationMs('500ms', 'x'), 500);
  assert.equal(parseDurationMs('1m30s', 'x'), 90_000);
  assert.equal(parseDurationMs('2h', 'x'), 7_200_000);
  usageError(() => parseDurationMs('soon', 'wait-timeout'), /--wait-timeout: "soon" is not a duration/);
  usageError(() => parseDurationMs('5 m', 'wait-timeout'), /not a duration/);
});

test('peer addresses must be host:port with a valid port', () => {
  assert.equal(parseHostPort('h4:6543', 'peer-address'), 'h4:6543');
  assert.equal(parseHostPort('[::1]:6543', 'peer-address'), '[::1]:6543');
  usageError(() => parseHostPort('h4', 'peer-address'), /--peer-address: "h4" is not host:port/);
  usageError(() => parseHostPort('h4:70000', 'peer-address'), /not host:port/);
});

test('a peer list is name=host:port pairs, each name once', () => {
  assert.deepEqual(parsePeerList('a=h1:1,b=h2:2', 'peers'), { a: 'h1:1', b: 'h2:2' });
  usageError(() => parsePeerList('a=h1:1,a=h2:2', 'peers'), /a is named twice/);
  usageError(() => parsePeerList('h1:1', 'peers'), /"h1:1" is not name=host:port/);
  usageError(() => parsePeerList('', 'peers'), /names no member/);
});

test('unknown flags and missing values are usage errors pointing at the command help', () => {
  usageError(() => parseCommandArgs('get', ['--nope'], {}), /see orchctl get --help$/);
  usageError(() => parseCommandArgs('get', ['-o'], { output: { type: 'string', short: 'o' } }), /see orchctl get --help$/);
  const parsed = parseCommandArgs('get', ['pods', '-o', 'yaml', '-A'], { output: { type: 'string', short: 'o' }, 'all-namespaces': { type: 'boolean', short: 'A' } });
  assert.deepEqual(parsed.positionals, ['pods']);
  assert.equal(outputFormat('get', parsed, ['table', 'yaml'], 'table'), 'yaml');
  usageError(() => outputFormat('get', parsed, ['table', 'json'], 'table'), /output format "yaml" is not one of table, json/);
});
