// The log backend as kube wraps it: truncate(buffered(log)) with --audit-log-mode=batch and
// --audit-log-truncate-enabled: events written after the request (never failing it), large bodies cut.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { encodeEvent, type AuditEvent } from '../../../internal/audit/event.ts';
import { parsePolicy } from '../../../internal/audit/policy-file.ts';
import type { AuditSink } from '../../../internal/audit/sink.ts';
import { startAudit } from '../../../internal/audit/start-audit.ts';

test('batch mode writes in the background and on shutdown; truncate cuts a large event\'s bodies', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-audit-batch-'));
  try {
    const path = join(dir, 'audit.log');
    const policy = parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const auditor = startAudit({
      policy,
      log: {
        path, format: 'json', maxAgeDays: 0, maxBackups: 0, maxSizeMegabytes: 0, strict: true, compress: false,
        batch: { bufferSize: 10, maxBatchSize: 3, maxBatchWaitMs: 60_000, throttleEnable: false, throttleQps: 0, throttleBurst: 0 },
        truncate: { maxBatchBytes: 100_000, maxEventBytes: 600 },
      },
    }, new Registry(), () => assert.fail('nothing fails'));
    assert.ok(auditor !== undefined);
    const ev = (id: string, body?: string): AuditEvent => ({
      level: 'RequestResponse', auditID: id, stage: 'ResponseComplete', requestURI: '/api', verb: 'get', user: undefined, sourceIPs: [], userAgent: '',
      requestReceivedMs: 0, stageMs: 0, annotations: new Map(), ...(body === undefined ? {} : { requestObject: body }),
    });
    const sink: AuditSink = auditor.sink;
    for (const e of [ev('1'), ev('2', JSON.stringify('x'.repeat(1000)))]) assert.equal(sink.processEvents([{ event: e, json: encodeEvent(e) }]), true);
    assert.equal(readFileSync(path, 'utf8'), '');
    await auditor.shutdown();
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { auditID: string; annotations?: Record<string, string>; requestObject?: unknown });
    assert.deepEqual(lines.map((l) => l.auditID), ['1', '2']);
    assert.deepEqual(lines[1]?.annotations, { 'audit.k8s.io/truncated': 'true' });
    assert.equal(lines[1]?.requestObject, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
