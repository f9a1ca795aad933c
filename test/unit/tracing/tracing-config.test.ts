import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultTracesUrl, loadTracingConfig, tracesUrlOf, TracingConfigError, tracingSettingsOf } from '../../../internal/tracing/tracing-config.ts';
import { parseObservabilityFlags } from '../../../internal/replica/observability-flags.ts';

const header = { apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'TracingConfiguration' };

test("kube's TracingConfiguration in each apiserver.config.k8s.io version; the defaults are OTLP HTTP's endpoint and no root sampling", () => {
  for (const version of ['v1alpha1', 'v1beta1', 'v1']) {
    assert.deepEqual(tracingSettingsOf({ apiVersion: `apiserver.config.k8s.io/${version}`, kind: 'TracingConfiguration' }), { url: defaultTracesUrl, samplingRatePerMillion: 0 });
  }
  assert.equal(defaultTracesUrl, 'http://localhost:4318/v1/traces');
  assert.deepEqual(tracingSettingsOf({ ...header, endpoint: 'collector:4318', samplingRatePerMillion: 1_000_000 }), { url: 'http://collector:4318/v1/traces', samplingRatePerMillion: 1_000_000 });
});

test('endpoint: host:port or an http(s) URL; a URL without a path gets the OTLP traces path', () => {
  assert.equal(tracesUrlOf('localhost:4318'), 'http://localhost:4318/v1/traces');
  assert.equal(tracesUrlOf('127.0.0.1:55681'), 'http://127.0.0.1:55681/v1/traces');
  assert.equal(tracesUrlOf('[::1]:4318'), 'http://[::1]:4318/v1/traces');
  assert.equal(tracesUrlOf('http://127.0.0.1:4318'), 'http://127.0.0.1:4318/v1/traces');
  assert.equal(tracesUrlOf('https://otel.example:443/'), 'https://otel.example/v1/traces');
  assert.equal(tracesUrlOf('https://otel.example/custom/traces'), 'https://otel.example/custom/traces');
  for (const bad of ['localhost', 'localhost:99999', 'grpc://x:4317', 'http://', ':4318', 'a b:1']) assert.throws(() => tracesUrlOf(bad), TracingConfigError, bad);
});

test('what is not a TracingConfiguration is refused, naming the field', () => {
  const refused = (doc: unknown, message: RegExp): void => assert.throws(() => tracingSettingsOf(doc), (err: unknown) => err instanceof TracingConfigError && message.test(err.message));
  refused(null, /not a TracingConfiguration object/);
  refused([], /not a TracingConfiguration object/);
  refused({ ...header, kind: 'AdmissionConfiguration' }, /^kind: /);
  refused({ ...header, apiVersion: 'apiserver.k8s.io/v1' }, /^apiVersion: /);
  refused({ ...header, samplingRatePerMillion: -1 }, /^samplingRatePerMillion: /);
  refused({ ...header, samplingRatePerMillion: 1_000_001 }, /^samplingRatePerMillion: /);
  refused({ ...header, samplingRatePerMillion: 0.5 }, /^samplingRatePerMillion: /);
  refused({ ...header, samplingRatePerMillion: '10' }, /^samplingRatePerMillion: /);
  refused({ ...header, endpoint: '' }, /^endpoint: /);
  refused({ ...header, endpoint: 4318 }, /^endpoint: /);
  refused({ ...header, samplingRatePerMilion: 10 }, /unknown field "samplingRatePerMilion"/);
});

test('--tracing-config-file reads YAML or JSON; a file that cannot be used stops the replica, naming the flag', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-tracing-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const yamlFile = join(dir, 'tracing.yaml');
  writeFileSync(yamlFile, 'apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: TracingConfiguration\nendpoint: http://127.0.0.1:4318\nsamplingRatePerMillion: 100\n');
  assert.deepEqual(loadTracingConfig(yamlFile), { url: 'http://127.0.0.1:4318/v1/traces', samplingRatePerMillion: 100 });
  const jsonFile = join(dir, 'tracing.json');
  writeFileSync(jsonFile, JSON.stringify({ ...header, endpoint: 'otel:4318' }));
  assert.deepEqual(loadTracingConfig(jsonFile).url, 'http://otel:4318/v1/traces');

  const makeError = (message: string): Error => new Error(message);
  assert.deepEqual(parseObservabilityFlags({ v: '0' }, makeError), { verbosity: 0, tracing: null });
  assert.deepEqual(parseObservabilityFlags({ v: '3', 'tracing-config-file': jsonFile }, makeError).verbosity, 3);
  assert.throws(() => parseObservabilityFlags({ v: '0', 'tracing-config-file': join(dir, 'missing.yaml') }, makeError), /^Error: --tracing-config-file: cannot read /);
  const badFile = join(dir, 'bad.yaml');
  writeFileSync(badFile, 'kind: TracingConfiguration\napiVersion: apiserver.config.k8s.io/v1beta1\nendpoint: nowhere\n');
  assert.throws(() => parseObservabilityFlags({ v: '0', 'tracing-config-file': badFile }, makeError), /^Error: --tracing-config-file: .*bad\.yaml: endpoint: "nowhere"/);
  assert.throws(() => parseObservabilityFlags({ v: 'loud' }, makeError), /^Error: --v: "loud"/);
});
