import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesLabels, parseLabelSelector } from '../../../internal/registry/generic/label-selector.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { fieldSelectorNaming, matchesFields, parseFieldSelector } from '../../../internal/registry/generic/field-selector.ts';
import type { KObject, ResourceDeclaration } from '../../../internal/registry/schema/declaration.ts';
import { replicasets } from '../../../internal/registry/apps/replicasets.ts';
import { configmaps } from '../../../internal/registry/core/configmaps.ts';
import { events } from '../../../internal/registry/core/events.ts';
import { namespaces } from '../../../internal/registry/core/namespaces.ts';
import { nodes } from '../../../internal/registry/core/nodes.ts';
import { persistentvolumes } from '../../../internal/registry/core/persistentvolumes.ts';
import { pods } from '../../../internal/registry/core/pods.ts';
import { secrets } from '../../../internal/registry/core/secrets.ts';
import { services } from '../../../internal/registry/core/services.ts';
import { eventsV1 } from '../../../internal/registry/events/events.ts';

test('label selector supports =, ==, !=, in, notin, exists and !', () => {
  const labels = { app: 'web', tier: 'front', env: 'prod' };
  const cases: [string, boolean][] = [
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app in (web,api)', true],
    ['tier notin (front)', false],
    ['env', true],
    ['!env', false],
    ['!missing', true],
    ['missing!=x', true],
    ['app=web,tier in (back, front),!missing', true],
    ['', true],
  ];
  for (const [selector, expected] of cases) assert.equal(matchesLabels(parseLabelSelector(selector), labels), expected, selector);
});

test('malformed label selectors are a 400', () => {
  assert.throws(() => parseLabelSelector('a=b c'), (e: unknown) => e instanceof StatusError && e.code === 400);
  assert.throws(() => parseLabelSelector('-bad=x'), (e: unknown) => e instanceof StatusError && e.code === 400);
});

// Field selectors, as kube-apiserver 1.28 takes them: apimachinery's fields.ParseSelector (terms split
// on unescaped commas and sorted, `!=` `==` `=` at the first operator, values unescaped), then the
// kind's field label conversion (pkg/apis/<group>/<version>/conversion.go), then matching against
// the kind's field set (pkg/registry/<group>/<resource>/strategy.go).

/** The 400 a field selector is refused with, or null when it parses. */
function refusal(selector: string, decl: ResourceDeclaration): string | null {
  try {
    parseFieldSelector(selector, decl);
    return null;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    return err.message;
  }
}

function selects(selector: string, decl: ResourceDeclaration, obj: KObject): boolean {
  return matchesFields(parseFieldSelector(selector, decl), obj);
}

const cm = (name: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns1' } });

test('field selectors take =, == and != and several terms, all of which must hold', () => {
  const cases: [string, boolean][] = [
    ['metadata.name=a', true],
    ['metadata.name==a', true],
    ['metadata.name!=a', false],
    ['metadata.name=b', false],
    ['metadata.name=a,metadata.namespace=ns1', true],
    ['metadata.name=a,metadata.namespace!=ns1', false],
    ['metadata.namespace=ns1,metadata.name!=b', true],
    [',metadata.name=a,,', true],
    ['', true],
    ['metadata.name=', false],
  ];
  for (const [selector, expected] of cases) assert.equal(selects(selector, configmaps, cm('a')), expected, selector);
});

test('field selector values take the backslash escapes of fields.EscapeValue: \\\\, \\, and \\=', () => {
  assert.equal(selects('metadata.name=a\\,b', configmaps, cm('a,b')), true);
  assert.equal(selects('metadata.name=a\\=b', configmaps, cm('a=b')), true);
  assert.equal(selects('metadata.name=a\\\\b', configmaps, cm('a\\b')), true);
  assert.equal(selects('metadata.name=a\\\\,metadata.namespace=ns1', configmaps, cm('a\\')), true, 'an escaped backslash does not escape the comma after it');
  assert.deepEqual(parseFieldSelector('metadata.name=x\\,y,metadata.namespace!=z', configmaps).map((r) => [r.field, r.equal, r.value]), [['metadata.name', true, 'x,y'], ['metadata.namespace', false, 'z']]);
});

test('malformed field selectors are a 400 with apimachinery\'s messages', () => {
  assert.equal(refusal('metadata.name', configmaps), "invalid selector: 'metadata.name'; can't understand 'metadata.name'");
  assert.equal(refusal('metadata.name=a,oops', configmaps), "invalid selector: 'metadata.name=a,oops'; can't understand 'oops'");
  assert.equal(refusal('metadata.name=a=b', configmaps), 'invalid field selector: unescaped character in value: 61');
  assert.equal(refusal('metadata.name=a\\!', configmaps), 'invalid field selector: invalid escape sequence: \\!');
  assert.equal(refusal('metadata.name=a\\', configmaps), 'invalid field selector: invalid escape sequence: \\');
});

test('a label a kind with its own conversion does not take is "field label not supported"; other kinds answer with the default conversion\'s message', () => {
  assert.equal(refusal('status.hostIP=10.0.0.1', pods), 'field label not supported: status.hostIP');
  assert.equal(refusal('metadata.namespace=x', nodes), 'field label not supported: metadata.namespace');
  assert.equal(refusal('name=x', namespaces), 'field label not supported: name');
  assert.equal(refusal('metadata.namespace=x', namespaces), 'field label not supported: metadata.namespace');
  assert.equal(refusal('data=x', secrets), 'field label not supported: data');
  assert.equal(refusal('regarding.name=x', events), 'field label not supported: regarding.name');
  assert.equal(refusal('involvedObject.name=x', eventsV1), 'field label not supported: involvedObject.name');
  assert.equal(refusal('reportingComponent=x', eventsV1), 'field label not supported: reportingComponent');
  assert.equal(refusal('data.x=y', configmaps), '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  assert.equal(refusal('status.replicas=0', replicasets), '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"', 'apps/v1 registers no conversion for ReplicaSet');
  assert.equal(refusal('spec.clusterIP=None', services), '"spec.clusterIP" is not a known field selector: only "metadata.name", "metadata.namespace"', 'the Service labels came in 1.30');
  assert.equal(refusal('metadata.name = a', configmaps), '"metadata.name " is not a known field selector: only "metadata.name", "metadata.namespace"', 'spaces are part of the label');
  assert.equal(refusal('z.y=1,b.x=1', pods), 'field label not supported: b.x', 'terms are converted in sorted order');
  assert.equal(refusal('metadata.namespace=x', { ...configmaps, namespaced: false, custom: true }), 'field label not supported: metadata.namespace', 'a cluster-scoped custom resource');
  assert.equal(refusal('metadata.namespace=x', { ...configmaps, custom: true }), null);
  assert.equal(refusal('metadata.namespace=', persistentvolumes), null, 'the default conversion takes metadata.namespace for cluster-scoped kinds too');
});

const runningPod: KObject = {
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 'ns1' },
  spec: { nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'sa1', hostNetwork: true, containers: [] },
  status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], nominatedNodeName: 'n2' },
};
const pendingPod: KObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p2', namespace: 'ns1' }, spec: { containers: [] }, status: { phase: 'Pending' } };

test('pod field selectors select on the values of the pod field set', () => {
  for (const selector of ['spec.nodeName=n1', 'spec.host=n1', 'spec.restartPolicy=Always', 'spec.schedulerName=default-scheduler', 'spec.serviceAccountName=sa1', 'spec.hostNetwork=true', 'status.phase=Running', 'status.podIP=10.0.0.1', 'status.nominatedNodeName=n2', 'status.podIPs=', 'metadata.name=p1,metadata.namespace=ns1']) {
    assert.equal(selects(selector, pods, runningPod), true, selector);
  }
  for (const selector of ['spec.nodeName=', 'spec.hostNetwork=false', 'status.podIPs=10.0.0.1', 'status.phase!=Running']) assert.equal(selects(selector, pods, runningPod), false, selector);
  for (const selector of ['spec.nodeName=', 'spec.hostNetwork=false', 'status.podIP=', 'status.nominatedNodeName=', 'spec.serviceAccountName=', 'status.phase!=Running']) {
    assert.equal(selects(selector, pods, pendingPod), true, `${selector} (missing fields are "")`);
  }
  const legacy: KObject = { ...pendingPod, spec: { serviceAccount: 'old' }, status: { podIP: '10.0.0.9' } };
  assert.equal(selects('spec.serviceAccountName=old', pods, legacy), true, 'the deprecated serviceAccount stands in for an empty serviceAccountName');
  assert.equal(selects('status.podIP=10.0.0.9', pods, legacy), true, 'podIP without podIPs');
});

test('node, namespace and secret field selectors', () => {
  const node = (unschedulable?: boolean): KObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: unschedulable === undefined ? {} : { unschedulable } });
  assert.equal(selects('spec.unschedulable=false', nodes, node()), true);
  assert.equal(selects('spec.unschedulable=false', nodes, node(false)), true);
  assert.equal(selects('spec.unschedulable=true', nodes, node(true)), true);
  assert.equal(selects('spec.unschedulable!=true', nodes, node(true)), false);
  assert.equal(selects('metadata.name=n1,spec.unschedulable=false', nodes, node()), true);
  const ns: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' }, status: { phase: 'Terminating' } };
  assert.equal(selects('status.phase=Terminating,metadata.name=ns1', namespaces, ns), true);
  assert.equal(selects('status.phase=Active', namespaces, ns), false);
  const secret: KObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'ns1' }, type: 'kubernetes.io/service-account-token' };
  assert.equal(selects('type=kubernetes.io/service-account-token,metadata.namespace=ns1', secrets, secret), true);
  assert.equal(selects('type!=Opaque', secrets, secret), true);
});

const regarding = { kind: 'Pod', namespace: 'ns1', name: 'p1', uid: 'u1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{c}' };

test('core/v1 event field selectors: involvedObject.*, reason, type, reportingComponent and source', () => {
  const ev: KObject = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: 'ns1' }, involvedObject: regarding, reason: 'Started', type: 'Normal', source: { component: 'kubelet' }, reportingComponent: 'kubelet-rc' };
  const selector = 'involvedObject.kind=Pod,involvedObject.namespace=ns1,involvedObject.name=p1,involvedObject.uid=u1,involvedObject.apiVersion=v1,involvedObject.resourceVersion=7,involvedObject.fieldPath=spec.containers{c},reason=Started,type=Normal,source=kubelet,reportingComponent=kubelet-rc,metadata.name=e1,metadata.namespace=ns1';
  assert.equal(selects(selector, events, ev), true);
  const bySourceFallback: KObject = { ...ev, source: {}, reportingComponent: 'ctrl' };
  assert.equal(selects('source=ctrl', events, bySourceFallback), true, 'source falls back to reportingComponent');
  assert.equal(selects('type=Warning', events, ev), false);
});

test('events.k8s.io/v1 field selectors use its own names, mapped to the core field set', () => {
  const ev: KObject = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e1', namespace: 'ns1' }, regarding, reason: 'Started', type: 'Normal', reportingController: 'kubelet', reportingInstance: 'n1', deprecatedSource: { component: 'old-kubelet' } };
  const selector = 'regarding.kind=Pod,regarding.namespace=ns1,regarding.name=p1,regarding.uid=u1,regarding.apiVersion=v1,regarding.resourceVersion=7,regarding.fieldPath=spec.containers{c},reason=Started,type=Normal,reportingController=kubelet,source=old-kubelet,metadata.name=e1,metadata.namespace=ns1';
  assert.equal(selects(selector, eventsV1, ev), true);
  assert.equal(selects('source=kubelet', eventsV1, { ...ev, deprecatedSource: undefined }), true, 'source falls back to reportingController');
});

test('a watch of one object by its path pins metadata.name, and refuses a selector naming another', () => {
  assert.equal(fieldSelectorNaming('', configmaps, 'a,b'), 'metadata.name=a\\,b');
  assert.equal(fieldSelectorNaming(undefined, configmaps, 'x'), 'metadata.name=x');
  assert.equal(fieldSelectorNaming(',', configmaps, 'x'), 'metadata.name=x', 'an empty selector');
  assert.equal(fieldSelectorNaming('metadata.name=x,metadata.namespace=ns1', configmaps, 'x'), 'metadata.name=x,metadata.namespace=ns1');
  for (const selector of ['metadata.name=y', 'metadata.namespace=ns1', 'metadata.name!=y']) {
    assert.throws(() => fieldSelectorNaming(selector, configmaps, 'x'), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === "fieldSelector metadata.name doesn't match requested name", selector);
  }
  assert.throws(() => fieldSelectorNaming('spec.x=1', configmaps, 'x'), (e: unknown) => e instanceof StatusError && e.message.startsWith('"spec.x" is not a known field selector'), 'the selector is checked first');
});
