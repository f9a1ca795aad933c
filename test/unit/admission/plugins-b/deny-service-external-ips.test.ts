import { test } from 'node:test';
import assert from 'node:assert/strict';
import { denyServiceExternalIpsPlugin } from '../../../../internal/admission/plugins/deny-service-external-ips/deny-service-external-ips.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { attributes, rejectsWith, testDeps } from './helpers.ts';

const plugin = denyServiceExternalIpsPlugin(testDeps(), undefined);

function service(ips?: string[]): KObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'default' }, spec: { ports: [{ port: 80 }], ...(ips === undefined ? {} : { externalIPs: ips }) } };
}

const serviceRequest = { resource: { resource: 'services' }, kind: { kind: 'Service' } };

test('DenyServiceExternalIPs refuses a new Service with external IPs', async () => {
  await rejectsWith(
    plugin.validate!(attributes({ ...serviceRequest, object: service(['1.2.3.4']) })),
    403,
    'services "svc" is forbidden: Use of external IPs is denied by admission control',
  );
});

test('DenyServiceExternalIPs refuses an update adding an address', async () => {
  const a = attributes({ ...serviceRequest, operation: 'UPDATE', name: 'svc', object: service(['1.2.3.4', '5.6.7.8']), oldObject: service(['1.2.3.4']) });
  await rejectsWith(plugin.validate!(a), 403, 'services "svc" is forbidden: Use of external IPs is denied by admission control');
});

test('DenyServiceExternalIPs allows Services without addresses, kept or removed addresses', async () => {
  await plugin.validate!(attributes({ ...serviceRequest, object: service() }));
  await plugin.validate!(attributes({ ...serviceRequest, object: service([]) }));
  await plugin.validate!(attributes({ ...serviceRequest, operation: 'UPDATE', name: 'svc', object: service(['1.2.3.4']), oldObject: service(['1.2.3.4', '5.6.7.8']) }));
  await plugin.validate!(attributes({ ...serviceRequest, operation: 'UPDATE', name: 'svc', object: service(), oldObject: service(['1.2.3.4']) }));
  await plugin.validate!(attributes({ ...serviceRequest, subresource: 'status', operation: 'UPDATE', name: 'svc', object: service(['9.9.9.9']), oldObject: service() }));
  assert.ok(!plugin.handles('DELETE'));
});
