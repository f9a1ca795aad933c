import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Logger, levelOfVerbosity, parseVerbosity } from '../../../internal/logging/logger.ts';

/** A logger writing into an array, one parsed JSON object per line. */
function captured(verbosity: number): { logger: Logger; lines: () => Record<string, unknown>[]; raw: string[] } {
  const raw: string[] = [];
  const logger = Logger.create({ component: 'orch-apiserver', replica: 'orch-1', verbosity, destination: { write: (chunk: string) => void raw.push(chunk) } });
  return {
    logger,
    raw,
    lines: () => raw.map((chunk) => JSON.parse(chunk) as Record<string, unknown>),
  };
}

test('each line is one JSON object with time, level, msg, component and replica', () => {
  const { logger, lines, raw } = captured(0);
  logger.info('serving', { api: 'https://127.0.0.1:6443' });
  assert.equal(raw.length, 1);
  assert.ok(raw[0]?.endsWith('\n') && raw[0].indexOf('\n') === raw[0].length - 1, 'one line');
  const line = lines()[0] ?? {};
  assert.equal(line.msg, 'serving');
  assert.equal(line.level, 'info');
  assert.equal(line.component, 'orch-apiserver');
  assert.equal(line.replica, 'orch-1');
  assert.equal(line.api, 'https://127.0.0.1:6443');
  assert.ok(!Number.isNaN(Date.parse(String(line.time))), 'an ISO time');
  assert.equal('v' in line, false, 'no v on a V(0) line');
});

test('the (message, err?) adapter keeps its callers: an info line, or an error line with the error serialized', () => {
  const { logger, lines } = captured(0);
  const log = logger.legacy;
  log('controllers: leading');
  log('namespace x: deletion pass failed', new TypeError('boom\nsecond line'));
  log('a non-Error failure', { data: { password: 'hunter2' } });
  const [info, error, other] = lines();
  assert.equal(info?.level, 'info');
  assert.equal(info?.msg, 'controllers: leading');
  assert.equal(error?.level, 'error');
  const err = error?.err as Record<string, unknown>;
  assert.equal(err.type, 'TypeError');
  assert.equal(err.message, 'boom\nsecond line');
  assert.match(String(err.stack), /TypeError: boom/);
  assert.deepEqual(other?.err, { message: '[object Object]' }, "a non-Error is its text, never the object's fields");
});

test('--v gates V(n) lines as klog does and maps them onto pino levels', () => {
  const quiet = captured(0);
  quiet.logger.v(1, 'membership detail');
  quiet.logger.v(3, 'HTTP');
  assert.equal(quiet.raw.length, 0, 'the default is quiet');
  assert.equal(quiet.logger.enabled(0), true);
  assert.equal(quiet.logger.enabled(3), false);

  const two = captured(2);
  two.logger.v(2, 'controller action');
  two.logger.v(3, 'HTTP');
  assert.deepEqual(two.lines().map((l) => [l.msg, l.level, l.v]), [['controller action', 'info', 2]]);

  const five = captured(5);
  five.logger.v(3, 'HTTP', { code: 200 });
  five.logger.v(5, 'trace detail');
  five.logger.v(6, 'not at 5');
  assert.deepEqual(five.lines().map((l) => [l.msg, l.level, l.v]), [['HTTP', 'debug', 3], ['trace detail', 'trace', 5]]);
  assert.equal(five.lines()[0]?.code, 200);
});

test('warn and error are written at every verbosity; child loggers carry their bindings', () => {
  const { logger, lines } = captured(0);
  logger.warn('slow');
  logger.error('HTTP', undefined, { code: 500 });
  logger.child({ controller: 'namespace' }).info('pass');
  const written = lines();
  assert.deepEqual(written.map((l) => [l.level, l.msg]), [['warn', 'slow'], ['error', 'HTTP'], ['info', 'pass']]);
  assert.equal(written[1]?.code, 500);
  assert.equal('err' in (written[1] ?? {}), false);
  assert.equal(written[2]?.controller, 'namespace');
});

test('--v takes any non-negative integer, as klog, and names itself when refused', () => {
  assert.equal(parseVerbosity(undefined), 0);
  assert.equal(parseVerbosity('0'), 0);
  assert.equal(parseVerbosity('4'), 4);
  assert.equal(parseVerbosity('10'), 10);
  assert.equal(parseVerbosity('11'), 11);
  assert.equal(parseVerbosity('99'), 99);
  assert.equal(parseVerbosity('2147483647'), 2147483647);
  for (const bad of ['-1', 'x', '', '2.5', '1e1', '2147483648']) assert.throws(() => parseVerbosity(bad), /^Error: --v: /);
  const lines: string[] = [];
  const logger = Logger.create({ component: 'orch-apiserver', verbosity: 11, destination: { write: (chunk: string) => void lines.push(chunk) } });
  logger.v(11, 'deep');
  logger.v(12, 'deeper');
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as { msg: string; level: string }).msg), ['deep']);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map(levelOfVerbosity), ['info', 'info', 'info', 'debug', 'debug', 'trace', 'trace']);
});
