// proto/ holds Kubernetes' .proto files exactly as scripts/vendor-proto.ts copies them from the
// reference data (../shared), so the vendoring can be redone and checked, never edited by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { currentProtoFiles, defaultProtoSource, protoDifferences, vendoredProtoFiles } from '../../../../scripts/vendor-proto.ts';

const protoDirectory = fileURLToPath(new URL('../../../../proto/', import.meta.url));
const sourcePresent = existsSync(`${defaultProtoSource}/proto/k8s.io`);

test('proto/ is what make vendor-proto writes from ../shared', { skip: !sourcePresent && `the reference data (${defaultProtoSource}) is not beside this checkout` }, () => {
  assert.deepEqual(protoDifferences(vendoredProtoFiles(defaultProtoSource), currentProtoFiles(protoDirectory)), []);
});

test('the vendored tree holds every Kubernetes group the codec serves, with the licence', () => {
  const files = currentProtoFiles(protoDirectory);
  for (const path of ['k8s.io/api/core/v1/generated.proto', 'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto', 'k8s.io/apimachinery/pkg/runtime/generated.proto', 'k8s.io/api/apidiscovery/v2beta1/generated.proto', 'k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/generated.proto', 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.proto']) {
    assert.ok(files.has(path), path);
  }
  assert.match(files.get('LICENSE-kubernetes')?.toString() ?? '', /Apache License\s+Version 2\.0/);
});

test('a changed, missing or extra file is reported by path', () => {
  const wanted = new Map([['a.proto', Buffer.from('x')], ['b.proto', Buffer.from('y')]]);
  const current = new Map([['a.proto', Buffer.from('z')], ['c.proto', Buffer.from('w')]]);
  assert.deepEqual(protoDifferences(wanted, current), ['changed a.proto', 'missing b.proto', 'extra c.proto']);
});
