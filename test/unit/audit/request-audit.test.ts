// One request's audit without a server: admission's annotations by level (a webhook's patch only
// from Request), a Panic instead of ResponseComplete, managed fields left out, a blocking-strict
// refusal of the first event.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { AuditMetrics } from '../../../internal/audit/metrics.ts';
import { parsePolicy } from '../../../internal/audit/policy-file.ts';
import type { AuditAttributes } from '../../../internal/audit/policy-checker.ts';
import { RequestAudit } from '../../../internal/audit/request-audit.ts';

type Event = Record<string, unknown> & { stage: string; annotations?: Record<string, string>; requestObject?: unknown; responseObject?: unknown; responseStatus?: unknown };

function audit(level: string, options: { omitManagedFields?: boolean; stored?: boolean } = {}): { audit: RequestAudit; events: Event[] } {
  const events: Event[] = [];
  const policy = parsePolicy(JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', omitManagedFields: options.omitManagedFields ?? false, rules: [{ level }] }));
  const core = {
    policy,
    metrics: new AuditMetrics(new Registry()),
    sink: {
      processEvents(list: readonly { json: string }[]) {
        for (const e of list) events.push(JSON.parse(e.json) as Event);
        return options.stored ?? true;
      },
      shutdown: () => Promise.resolve(),
    },
  };
  const request = { url: '/api/v1/namespaces/a/pods', headers: {}, remoteAddress: '::ffff:127.0.0.1', peerCertificatePresented: () => false };
  return { audit: new RequestAudit(core, request, 'id-1'), events };
}

const attributes: AuditAttributes = {
  user: { username: 'alice', uid: 'u1', groups: ['g'], extra: {} }, verb: 'create', resourceRequest: true, namespace: 'a', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '', path: '',
};

function admitted(a: RequestAudit): void {
  a.admissionAnnotations.set('mutation.webhook.admission.k8s.io/round_0_index_0', '{"configuration":"c","webhook":"w","mutated":true}');
  a.admissionAnnotations.set('patch.webhook.admission.k8s.io/round_0_index_0', '{"configuration":"c","webhook":"w","patch":[],"patchType":"JSONPatch"}');
}

test('admission annotations: a webhook\'s patch only from level Request', () => {
  for (const [level, withPatch] of [['Metadata', false], ['Request', true]] as const) {
    const { audit: a, events } = audit(level);
    assert.equal(a.begin(attributes), true);
    admitted(a);
    a.answered(201, { kind: 'Pod' });
    const annotations = events.at(-1)?.annotations ?? {};
    assert.ok('mutation.webhook.admission.k8s.io/round_0_index_0' in annotations, level);
    assert.equal('patch.webhook.admission.k8s.io/round_0_index_0' in annotations, withPatch, level);
    assert.deepEqual(events.at(-1)?.sourceIPs, ['127.0.0.1']);
  }
});

test('an unexpected exception is a Panic, and no ResponseComplete follows', () => {
  const { audit: a, events } = audit('Metadata');
  a.begin(attributes);
  a.failed(new Error('boom'), { expected: false, query: new URLSearchParams(), attributes: () => attributes });
  a.answered(500, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500 });
  a.end();
  assert.deepEqual(events.map((e) => e.stage), ['RequestReceived', 'Panic']);
  assert.deepEqual(events[1]?.responseStatus, { metadata: {}, status: 'Failure', message: "APIServer panic'd: boom", reason: 'InternalError', code: 500 });
});

test('omitManagedFields: request and response bodies without metadata.managedFields; the name taken from the body', () => {
  const { audit: a, events } = audit('RequestResponse', { omitManagedFields: true });
  a.begin(attributes);
  const body = { kind: 'Pod', metadata: { name: 'p', managedFields: [{ manager: 'kubectl' }] } };
  a.logRequestObject(body);
  a.answered(201, { ...body, metadata: { ...body.metadata, uid: 'x' } }, '{"never":"used"}');
  const complete = events.at(-1);
  assert.deepEqual(complete?.requestObject, { kind: 'Pod', metadata: { name: 'p' } });
  assert.deepEqual(complete?.responseObject, { kind: 'Pod', metadata: { name: 'p', uid: 'x' } });
  assert.equal((complete?.objectRef as { name?: string }).name, 'p');
  assert.equal(body.metadata.managedFields.length, 1);
});

test('blocking-strict: a first event that cannot be stored refuses the request, and nothing more is written', () => {
  const { audit: a, events } = audit('Metadata', { stored: false });
  assert.equal(a.begin(attributes), false);
  a.answered(500, undefined);
  a.end();
  assert.deepEqual(events.map((e) => e.stage), ['RequestReceived']);
});
