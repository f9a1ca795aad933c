import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Logger } from '../../../internal/logging/logger.ts';
import { childLineForwarder, isJsonObjectLine } from '../../../internal/logging/process-output.ts';

test('a JSON object line is recognised; anything else is not', () => {
  assert.equal(isJsonObjectLine('{"level":"info","msg":"x"}'), true);
  for (const line of ['', 'plain text', '[1,2]', '{"unterminated"', '"string"', ' {"a":1}']) assert.equal(isJsonObjectLine(line), false, line);
});

test("the launcher forwards a replica's JSON lines as they are and wraps any other line, so its stderr stays one JSON object a line", () => {
  const written: string[] = [];
  const logger = Logger.create({ component: 'orch-cluster', verbosity: 0, destination: { write: (chunk: string) => void written.push(chunk) } });
  const forward = childLineForwarder(logger, (line) => written.push(line));
  const replicaLine = '{"level":"info","time":"2026-01-01T00:00:00.000Z","component":"orch-apiserver","replica":"orch-2","msg":"raft: became leader"}';
  forward('orch-2', 'stderr', replicaLine);
  forward('orch-3', 'stderr', 'Error: Cannot find module x');
  forward('orch-3', 'stdout', '');
  assert.equal(written.length, 2);
  assert.equal(written[0], `${replicaLine}\n`);
  const wrapped = JSON.parse(written[1] ?? '') as Record<string, unknown>;
  assert.equal(wrapped.component, 'orch-cluster');
  assert.equal(wrapped.replica, 'orch-3');
  assert.equal(wrapped.stream, 'stderr');
  assert.equal(wrapped.msg, 'Error: Cannot find module x');
  for (const chunk of written) assert.equal(chunk.split('\n').length, 2, 'one line each');
});
