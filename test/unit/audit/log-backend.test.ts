// The log backend's two formats: the event's JSON line, and kube's legacy one-line text; a write
// that fails is counted and, only when strict, fails the request.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { encodeEvent, formatMicroTime, type AuditEvent } from '../../../internal/audit/event.ts';
import { legacyLine, logBackend, pluginErrorMessage } from '../../../internal/audit/log-backend.ts';
import { AuditMetrics } from '../../../internal/audit/metrics.ts';

const received = Date.parse('2026-03-04T05:06:07.123Z') + 0.456;
const event: AuditEvent = {
  level: 'Metadata', auditID: 'a1', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/ns/pods?limit=1', verb: 'list',
  user: { username: 'alice', uid: '', groups: ['dev', 'system:authenticated'], extra: { 'b-key': ['2'], 'a-key': ['1'] } },
  impersonatedUser: { username: 'bob', uid: '', groups: ['ops'], extra: {} },
  sourceIPs: ['10.0.0.1'], userAgent: 'kubectl/v1.28.0', objectRef: { resource: 'pods', namespace: 'ns', apiVersion: 'v1' },
  responseStatus: { code: 200 }, requestReceivedMs: received, stageMs: received + 1.5, annotations: new Map([['z', '1'], ['a', '2']]),
};

test('microsecond timestamps in UTC, as metav1.MicroTime', () => {
  assert.equal(formatMicroTime(received), '2026-03-04T05:06:07.123456Z');
  assert.equal(formatMicroTime(Date.parse('2026-03-04T05:06:07Z')), '2026-03-04T05:06:07.000000Z');
});

test('json: Go\'s field order, maps sorted, empty fields left out', () => {
  assert.equal(encodeEvent(event), '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/ns/pods?limit=1","verb":"list",'
    + '"user":{"username":"alice","groups":["dev","system:authenticated"],"extra":{"a-key":["1"],"b-key":["2"]}},"impersonatedUser":{"username":"bob","groups":["ops"]},"sourceIPs":["10.0.0.1"],"userAgent":"kubectl/v1.28.0",'
    + '"objectRef":{"resource":"pods","namespace":"ns","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200},"requestReceivedTimestamp":"2026-03-04T05:06:07.123456Z","stageTimestamp":"2026-03-04T05:06:07.124956Z","annotations":{"a":"2","z":"1"}}');
});

test('legacy: kube\'s audit.EventString', () => {
  assert.equal(legacyLine(event), '2026-03-04T05:06:07.123456Z AUDIT: id="a1" stage="ResponseComplete" ip="10.0.0.1" method="list" user="alice" groups="\\"dev\\",\\"system:authenticated\\"" as="bob" asgroups="\\"ops\\"" user-agent="kubectl/v1.28.0" namespace="ns" uri="/api/v1/namespaces/ns/pods?limit=1" response="200"');
});

test('a failed write is counted; only blocking-strict reports it', async () => {
  const registry = new Registry();
  const metrics = new AuditMetrics(registry);
  const failing = { format: 'json' as const, write: () => { throw new Error('disk full'); }, close: () => undefined, metrics, log: () => undefined };
  assert.equal(logBackend({ ...failing, strict: false }).processEvents([{ event, json: '{}' }]), true);
  assert.equal(logBackend({ ...failing, strict: true }).processEvents([{ event, json: '{}' }]), false);
  assert.match(await registry.metrics(), /apiserver_audit_error_total\{plugin="log"\} 2/);
  const lines: string[] = [];
  logBackend({ ...failing, strict: true, format: 'legacy', write: (line) => void lines.push(line) }).processEvents([{ event, json: '{}' }]);
  assert.equal(lines[0], `${legacyLine(event)}\n`);
});

test('a failed write is logged as kube\'s HandlePluginError, with the error (an error-level line), the events listed, bounded', () => {
  const metrics = new AuditMetrics(new Registry());
  const logged: [string, unknown][] = [];
  const failure = new Error('no space left on device');
  logBackend({ format: 'json', strict: false, write: () => { throw failure; }, close: () => undefined, metrics, log: (message, err) => void logged.push([message, err]) })
    .processEvents([{ event, json: '{}' }]);
  assert.equal(logged.length, 1);
  assert.equal(logged[0]?.[0], `Error in audit plugin 'log' affecting 1 audit events: no space left on device\nImpacted events:\n${legacyLine(event)}\n`);
  assert.equal(logged[0]?.[1], failure);
  const many = pluginErrorMessage('webhook', 'the server answered 500', Array.from({ length: 8 }, () => event));
  assert.match(many, /^Error in audit plugin 'webhook' affecting 8 audit events: the server answered 500\nImpacted events:\n/);
  assert.equal(many.split('\n').filter((l) => l.includes(' AUDIT: ')).length, 5);
  assert.match(many, /\n\.\.\. and 3 more\n$/);
});
