// kube's v1 CRD defaults: singular from the kind, listKind, conversion None, webhook service port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCrd } from '../../../../internal/registry/apiextensions/crd-defaults.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';

type Entry = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function bare(spec: Entry): KObject {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'crontabs.stable.example.com' }, spec };
}

test('singular is the kind in lower case, listKind the kind plus List, conversion None', () => {
  const crd = bare({ group: 'stable.example.com', names: { plural: 'crontabs', kind: 'CronTab' } });
  defaultCrd(crd);
  assert.deepEqual((crd.spec as Entry).names, { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', listKind: 'CronTabList' });
  assert.deepEqual((crd.spec as Entry).conversion, { strategy: 'None' });
});

test('set names and conversion are kept; a webhook service gets port 443', () => {
  const crd = bare({
    names: { plural: 'crontabs', kind: 'CronTab', singular: 'ct', listKind: 'Crons' },
    conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'ns', name: 'conv' } }, conversionReviewVersions: ['v1'] } },
  });
  defaultCrd(crd);
  assert.deepEqual((crd.spec as Entry).names, { plural: 'crontabs', kind: 'CronTab', singular: 'ct', listKind: 'Crons' });
  assert.equal((crd.spec as Entry).conversion.webhook.clientConfig.service.port, 443);
});

test('no kind: no listKind, an empty singular (kube\'s strings.ToLower of "")', () => {
  const crd = bare({ names: { plural: 'crontabs' } });
  defaultCrd(crd);
  assert.deepEqual((crd.spec as Entry).names, { plural: 'crontabs', singular: '' });
});
