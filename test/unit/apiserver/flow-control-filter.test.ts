import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flowControlFilter, TooManyRequestsError, type RequestFlowControl } from '../../../internal/apiserver/filters/flow-control.ts';
import type { Attributes } from '../../../internal/authz/authorizer.ts';
import { compileConfiguration } from '../../../internal/flowcontrol/configuration.ts';
import { FlowControl } from '../../../internal/flowcontrol/flow-control.ts';
import { MaxInFlight } from '../../../internal/flowcontrol/max-inflight.ts';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels } from '../../../internal/registry/flowcontrol/bootstrap-configuration.ts';

const user = (name: string, ...groups: string[]) => ({ username: name, uid: '', groups: [...groups, 'system:authenticated'], extra: {} });
const attributes = (u: ReturnType<typeof user>, verb: string, subresource = ''): Attributes => ({ user: u, verb, resourceRequest: true, namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource, name: '', path: '' });
const request = (a: Attributes, headers: Map<string, string> = new Map()) => ({ attributes: a, query: new URLSearchParams(), setHeader: (name: string, value: string) => void headers.set(name, value) });

test('with APF off, the in-flight limits refuse past them, except long-running requests and system:masters', async () => {
  const control: RequestFlowControl = { maxInFlight: new MaxInFlight(1, 1), objectCount: () => undefined };
  const alice = user('alice');
  const release = await flowControlFilter(control, request(attributes(alice, 'get')));
  await assert.rejects(flowControlFilter(control, request(attributes(alice, 'list'))), (err: unknown) => err instanceof TooManyRequestsError && err.retryAfterSeconds === 1);
  // A write counts against the other limit; a watch and a log stream are not counted at all.
  const write = await flowControlFilter(control, request(attributes(alice, 'create')));
  await flowControlFilter(control, request(attributes(alice, 'watch')));
  await flowControlFilter(control, request(attributes(alice, 'get', 'log')));
  await flowControlFilter(control, request(attributes(user('root', 'system:masters'), 'get')));
  release();
  write();
  await flowControlFilter(control, request(attributes(alice, 'get')));
});

test('with APF on, a request is classified and its schema and level are named in the response headers', async () => {
  const asObject = (o: { name: string; spec: Record<string, unknown> }) => ({ metadata: { name: o.name, uid: `uid-${o.name}` }, spec: o.spec });
  const configuration = compileConfiguration([...mandatoryFlowSchemas, ...suggestedFlowSchemas].map(asObject), [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map(asObject), 600);
  const control: RequestFlowControl = { apf: new FlowControl(configuration, { requestWaitLimitMs: 1_000 }), objectCount: () => 5_000 };
  const headers = new Map<string, string>();
  const release = await flowControlFilter(control, request(attributes(user('alice'), 'list'), headers));
  assert.deepEqual(Object.fromEntries(headers), { 'X-Kubernetes-PF-FlowSchema-UID': 'uid-global-default', 'X-Kubernetes-PF-PriorityLevel-UID': 'uid-global-default' });
  const report = control.apf?.report().find((r) => r.level.name === 'global-default');
  assert.ok((report?.queues?.executingSeats ?? 0) > 1, 'a LIST of 5,000 objects takes more than one seat');
  release();
  assert.equal(control.apf?.report().find((r) => r.level.name === 'global-default')?.queues?.executingSeats, 0);
  const masters = new Map<string, string>();
  (await flowControlFilter(control, request(attributes(user('root', 'system:masters'), 'create'), masters)))();
  assert.equal(masters.get('X-Kubernetes-PF-PriorityLevel-UID'), 'uid-exempt');
});
