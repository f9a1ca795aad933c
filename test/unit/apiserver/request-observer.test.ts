import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Logger } from '../../../internal/logging/logger.ts';
import { observeRequest, routeOf } from '../../../internal/apiserver/request-observer.ts';
import { parseRequestInfo } from '../../../internal/apiserver/request-info.ts';

function captured(verbosity: number): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const raw: string[] = [];
  const logger = Logger.create({ component: 'orch-apiserver', replica: 'orch-1', verbosity, destination: { write: (chunk: string) => void raw.push(chunk) } });
  return { logger, lines: () => raw.map((chunk) => JSON.parse(chunk) as Record<string, unknown>) };
}

const request = (method: string, url: string) => ({
  method, url,
  headers: { 'user-agent': 'kubectl/v1.28.0', authorization: 'Bearer secret-token', 'audit-id': 'sent-by-client' },
  socket: { remoteAddress: '127.0.0.1' },
});

test("kube's span names: the path with the namespace and name templated; non-resource requests have none", () => {
  const route = (method: string, path: string) => {
    const info = parseRequestInfo(method, path, new URLSearchParams());
    return info === null ? undefined : routeOf(info);
  };
  assert.equal(route('POST', '/api/v1/namespaces/default/configmaps'), '/api/v1/namespaces/{:namespace}/configmaps');
  assert.equal(route('GET', '/apis/apps/v1/namespaces/x/deployments/web/status'), '/apis/apps/v1/namespaces/{:namespace}/deployments/{:name}/status');
  assert.equal(route('GET', '/api/v1/nodes/n1'), '/api/v1/nodes/{:name}');
  assert.equal(route('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles'), '/apis/rbac.authorization.k8s.io/v1/clusterroles');
  assert.equal(route('GET', '/healthz'), undefined);
});

test('the request log is quiet at the default verbosity, and a 5xx is logged always', async () => {
  const { logger, lines } = captured(0);
  await observeRequest(logger, request('GET', '/api/v1/namespaces'), { statusCode: 200 }, async () => undefined);
  assert.equal(lines().length, 0);
  await observeRequest(logger, request('GET', '/api/v1/namespaces/a/pods/p'), { statusCode: 500 }, async () => undefined);
  const [line] = lines();
  assert.equal(line?.level, 'error');
  assert.equal(line?.msg, 'HTTP');
  assert.equal(line?.code, 500);
  assert.equal(line?.verb, 'get');
});

test('at --v=3 every request has a line with its verb, resource, code and latency, and no credential', async () => {
  const { logger, lines } = captured(3);
  const res = { statusCode: 0, getHeader: (name: string) => (name === 'audit-id' ? 'answered-id' : undefined) };
  await observeRequest(logger, request('POST', '/apis/apps/v1/namespaces/team/deployments/web/scale?dryRun=All'), res, async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    res.statusCode = 201;
  });
  const [line] = lines();
  assert.deepEqual({ ...line, time: undefined, latencyMs: undefined }, {
    level: 'debug', time: undefined, component: 'orch-apiserver', replica: 'orch-1', msg: 'HTTP', v: 3,
    method: 'POST', uri: '/apis/apps/v1/namespaces/team/deployments/web/scale?dryRun=All', verb: 'create', apiGroup: 'apps', apiVersion: 'v1',
    resource: 'deployments', subresource: 'scale', namespace: 'team', name: 'web', code: 201, latencyMs: undefined,
    userAgent: 'kubectl/v1.28.0', auditID: 'answered-id', srcIP: '127.0.0.1',
  });
  assert.ok(typeof line?.latencyMs === 'number' && line.latencyMs >= 4, `latency ${String(line?.latencyMs)}`);
  assert.ok(!JSON.stringify(lines()).includes('secret-token'));
});

test('a request that throws is still logged, and the error goes on to the caller', async () => {
  const { logger, lines } = captured(3);
  await assert.rejects(observeRequest(logger, request('GET', '/version'), { statusCode: 200 }, async () => {
    throw new Error('lost');
  }), /lost/);
  assert.equal(lines()[0]?.uri, '/version');
  assert.equal(lines()[0]?.verb, undefined);
});
