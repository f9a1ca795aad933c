// Issue 26 part 3 on a real 3-process cluster: every line every replica writes is one JSON object,
// and a create sent with a W3C traceparent leaves a trace, exported over OTLP HTTP to a receiver
// this test runs, of the request, its admission, its store write and its Raft commit, each with its
// duration and parented as they nest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { eventually } from '../support/auth-https.ts';

/** One span as the OTLP JSON encoding carries it (ids in hex, times as nanosecond strings). */
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string | number;
  readonly endTimeUnixNano: string | number;
  readonly attributes?: readonly { readonly key: string; readonly value: Record<string, unknown> }[];
}

interface OtlpExport {
  readonly resourceSpans?: readonly { readonly scopeSpans?: readonly { readonly spans?: readonly OtlpSpan[] }[] }[];
}

/** An OTLP HTTP receiver: every span POSTed to /v1/traces, in arrival order. */
async function startReceiver(): Promise<{ server: Server; url: string; spans: OtlpSpan[]; contentTypes: Set<string> }> {
  const spans: OtlpSpan[] = [];
  const contentTypes = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      contentTypes.add(String(req.headers['content-type']));
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes };
}

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}

function durationNs(span: OtlpSpan): bigint {
  return BigInt(String(span.endTimeUnixNano)) - BigInt(String(span.startTimeUnixNano));
}

test('a create with a traceparent is traced through admission, the store and Raft, and every log line is JSON', { timeout: 90_000 }, async (t) => {
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'orch-e2e-traces-'));
  const configFile = join(dir, 'tracing.yaml');
  // Rate 0: only a request whose client asks for sampling is traced (kube's on-demand tracing).
  writeFileSync(configFile, `apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: ${receiver.url}\nsamplingRatePerMillion: 0\n`);
  const lines: { replica: string; stream: string; line: string }[] = [];
  // The replicas' span batches leave every 200 ms (the SDK's OTEL_BSP_SCHEDULE_DELAY), not every 5 s.
  const previousDelay = process.env.OTEL_BSP_SCHEDULE_DELAY;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '200';
  let fixture: ClusterFixture | undefined;
  t.after(async () => {
    await fixture?.close();
    receiver.server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  try {
    fixture = await startClusterFixture({
      extraArgs: ['--tracing-config-file', configFile, '--v=3'],
      output: { onLine: (replica, stream, line) => lines.push({ replica, stream, line }) },
    });
  } finally {
    if (previousDelay === undefined) delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    else process.env.OTEL_BSP_SCHEDULE_DELAY = previousDelay;
  }
  const client = fixture.clients[1];
  assert.ok(client !== undefined);

  const traceId = randomBytes(16).toString('hex');
  const clientSpanId = randomBytes(8).toString('hex');
  const created = await client.call('POST', '/api/v1/namespaces/default/configmaps', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'traced' }, data: { a: 'b' } },
    headers: { traceparent: `00-${traceId}-${clientSpanId}-01` },
  });
  assert.equal(created.status, 201, created.text);

  const ofTrace = (): OtlpSpan[] => receiver.spans.filter((s) => s.traceId === traceId);
  await eventually('the trace exported', async () => ofTrace().some((s) => s.name === 'Raft commit') && ofTrace().some((s) => s.kind === 2), 20_000);
  assert.ok([...receiver.contentTypes].every((type) => type.startsWith('application/json')), `OTLP JSON: ${[...receiver.contentTypes].join(', ')}`);
  const spans = ofTrace();
  const one = (name: string): OtlpSpan => {
    const found = spans.filter((s) => s.name === name);
    assert.equal(found.length, 1, `one ${name} span among ${spans.map((s) => s.name).join(', ')}`);
    return found[0] as OtlpSpan;
  };
  const request = one('POST /api/v1/namespaces/{:namespace}/configmaps');
  assert.equal(request.kind, 2, 'the request span is a SERVER span');
  assert.equal(request.parentSpanId, clientSpanId, "the request span's parent is the client's span");
  assert.equal(attribute(request, 'http.method'), 'POST');
  assert.equal(attribute(request, 'http.target'), '/api/v1/namespaces/default/configmaps');
  assert.equal(Number(attribute(request, 'http.status_code')), 201);
  const mutating = one('Admission mutating');
  const validating = one('Admission validating');
  const write = one('Create storage');
  const commit = one('Raft commit');
  for (const child of [mutating, validating, write]) assert.equal(child.parentSpanId, request.spanId, `${child.name} is a child of the request`);
  assert.equal(commit.parentSpanId, write.spanId, 'the Raft commit is a child of the store write');
  assert.equal(attribute(mutating, 'operation'), 'CREATE');
  assert.match(String(attribute(write, 'key')), /configmaps.*default.*traced/);
  for (const span of [request, mutating, validating, write, commit]) assert.ok(durationNs(span) > 0n, `${span.name} has a duration`);
  assert.ok(durationNs(commit) <= durationNs(write) && durationNs(write) <= durationNs(request), 'nested spans last no longer than their parents');

  // Logs: one JSON object a line, on every replica; the request line (at --v=3) of the create.
  assert.ok(lines.length > 0);
  for (const { replica, stream, line } of lines) {
    let parsed: unknown;
    assert.doesNotThrow(() => (parsed = JSON.parse(line)), `${replica} ${stream}: ${line}`);
    assert.ok(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), `${replica} ${stream}: ${line}`);
    const record = parsed as Record<string, unknown>;
    for (const field of ['time', 'level', 'msg', 'component']) assert.ok(field in record, `${field} in ${line}`);
    assert.ok(!line.includes(fixture.cluster.adminToken), 'no line carries the admin token');
  }
  for (const name of ['orch-1', 'orch-2', 'orch-3']) assert.ok(lines.some((l) => l.replica === name && l.stream === 'stderr'), `${name} logged`);
  const requestLines = lines.map((l) => JSON.parse(l.line) as Record<string, unknown>)
    .filter((r) => r.msg === 'HTTP' && r.verb === 'create' && r.resource === 'configmaps' && r.name === undefined && r.code === 201 && r.replica === 'orch-2');
  assert.equal(requestLines.length, 1, 'one request line for the create');
  const logged = requestLines[0] ?? {};
  assert.equal(logged.user, 'orch-admin');
  assert.equal(logged.namespace, 'default');
  assert.equal(logged.v, 3);
  assert.equal(typeof logged.latencyMs, 'number');
  assert.ok(lines.some((l) => /"msg":"raft: became leader"/.test(l.line)), 'an election was logged');
});
