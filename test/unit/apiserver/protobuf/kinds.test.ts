// Which kinds have a Protobuf message: those kube-apiserver serves in Protobuf, under orch's own
// group names too; never Table or a custom resource. And the table of Go pointer fields names real fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeProtobuf, hasProtobuf } from '../../../../internal/apiserver/protobuf/index.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import { goPointerFields } from '../../../../internal/apiserver/protobuf/go-pointer-fields.ts';
import { lookupMessage } from '../../../../internal/apiserver/protobuf/proto-root.ts';

test('built-in kinds, their Lists and the kinds every group version serves have a message', () => {
  const kinds: Array<[string, string]> = [
    ['v1', 'Pod'], ['v1', 'PodList'], ['v1', 'Status'], ['v1', 'DeleteOptions'], ['v1', 'Binding'], ['v1', 'List'], ['v1', 'WatchEvent'],
    ['apps/v1', 'Deployment'], ['apps/v1', 'DeleteOptions'], ['apps/v1', 'WatchEvent'], ['autoscaling/v1', 'Scale'], ['policy/v1', 'Eviction'],
    ['authentication.k8s.io/v1', 'TokenReview'], ['authentication.k8s.io/v1', 'TokenRequest'], ['authorization.k8s.io/v1', 'SubjectAccessReview'],
    ['authorization.k8s.io/v1', 'SelfSubjectAccessReview'], ['authorization.k8s.io/v1', 'LocalSubjectAccessReview'], ['authorization.k8s.io/v1', 'SelfSubjectRulesReview'],
    ['meta.k8s.io/v1', 'PartialObjectMetadata'], ['meta.k8s.io/v1', 'PartialObjectMetadataList'], ['meta.k8s.io/v1beta1', 'PartialObjectMetadata'], ['meta.k8s.io/v1beta1', 'PartialObjectMetadataList'],
    ['v1', 'APIVersions'], ['v1', 'APIGroupList'], ['v1', 'APIGroup'], ['v1', 'APIResourceList'], ['apidiscovery.k8s.io/v2beta1', 'APIGroupDiscoveryList'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole'], ['flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema'], ['apiregistration.k8s.io/v1', 'APIService'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'], ['events.k8s.io/v1', 'Event'], ['coordination.k8s.io/v1', 'Lease'],
  ];
  assert.deepEqual(kinds.filter(([apiVersion, kind]) => !hasProtobuf(apiVersion, kind)), []);
});

test('the options and WatchEvent have a message in a custom resource\'s group version too (DeleteOptions bodies from client-go)', () => {
  assert.equal(hasProtobuf('example.com/v1', 'DeleteOptions'), true);
  assert.equal(hasProtobuf('example.com/v1', 'WatchEvent'), true);
});

test('groups served under orch\'s own domain map to the same messages', () => {
  assert.equal(hasProtobuf('rbac.authorization.orch.example/v1', 'Role'), true);
  assert.equal(hasProtobuf('events.orch.example/v1', 'Event'), true);
  assert.equal(hasProtobuf('flowcontrol.apiserver.orch.example/v1beta3', 'PriorityLevelConfiguration'), true);
});

test('Table, custom resources, parts of kinds and unknown versions have none', () => {
  const none: Array<[string, string]> = [
    ['meta.k8s.io/v1', 'Table'], ['meta.k8s.io/v1beta1', 'Table'], ['example.com/v1', 'Widget'], ['example.com/v1', 'WidgetList'],
    ['v1', 'PodSpec'], ['v1', 'PodTemplateSpec'], ['v1', 'ObjectMeta'], ['apps/v1', 'Scale'], ['v1', 'Pod2'], ['v9', 'Pod'], ['v1', 'pod'], ['', 'Pod'],
  ];
  assert.deepEqual(none.filter(([apiVersion, kind]) => hasProtobuf(apiVersion, kind)), []);
});

test('encoding a kind without a message is a 406', () => {
  assert.throws(() => encodeProtobuf({ apiVersion: 'meta.k8s.io/v1', kind: 'Table', rows: [] }), (err) => err instanceof StatusError && err.code === 406);
});

test('every entry of the Go pointer table names a scalar field of a vendored message', () => {
  const wrong: string[] = [];
  for (const [message, fields] of goPointerFields) {
    const type = lookupMessage(message);
    if (type === undefined) {
      wrong.push(`no message ${message}`);
      continue;
    }
    for (const name of fields) {
      const field = type.fields[name];
      // IntOrString fields are listed where Go has *IntOrString; they are messages the writer always keeps.
      if (field === undefined) wrong.push(`no field ${message}.${name}`);
      else if (field.resolvedType !== null && field.resolvedType.name !== 'IntOrString') wrong.push(`${message}.${name} is a message`);
    }
  }
  assert.deepEqual(wrong, []);
});
