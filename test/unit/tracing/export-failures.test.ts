// An OTLP receiver that is down must not flood the log: export failures are logged as
// `OTLP export failed` with the error in pino's `err` field, each distinct one at most once a minute.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { globalErrorHandler } from '@opentelemetry/core';
import { rateLimitedWarn, startTracing, tracingWarnIntervalMs } from '../../../internal/tracing/start-tracing.ts';

test('the same message at most once per interval, then with the count held back; distinct messages each', () => {
  let now = 0;
  const lines: [string, Readonly<Record<string, unknown>> | undefined][] = [];
  const warn = rateLimitedWarn((message, fields) => void lines.push([message, fields]), 1000, () => now);
  warn('a', 'A');
  warn('a', 'A');
  warn('b', 'B');
  now = 999;
  warn('a', 'A');
  now = 1000;
  warn('a', 'A');
  assert.deepEqual(lines, [['A', {}], ['B', {}], ['A', { suppressed: 2 }]]);
  assert.equal(tracingWarnIntervalMs, 60_000);
});

test('an export failure is one short line with the error in err, not the error JSON in msg; repeats are held back', async () => {
  const lines: [string, Readonly<Record<string, unknown>> | undefined][] = [];
  const tracing = startTracing({ url: 'http://127.0.0.1:1/v1/traces', samplingRatePerMillion: 0 }, 'orch-1', (message, fields) => void lines.push([message, fields]));
  try {
    const failure = new Error('connect ECONNREFUSED 127.0.0.1:1');
    for (let i = 0; i < 50; i++) globalErrorHandler(failure);
    globalErrorHandler(new Error('another failure'));
    assert.equal(lines.length, 2);
    assert.equal(lines[0]?.[0], 'OTLP export failed');
    assert.equal(lines[0]?.[1]?.err, failure);
    assert.equal(lines[1]?.[0], 'OTLP export failed');
  } finally {
    await tracing.shutdown();
  }
});
