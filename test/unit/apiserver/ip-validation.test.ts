// IP addresses and CIDRs are checked as kube-apiserver v1.28 checks them (IsValidIP,
// ValidateNonSpecialIP, ParseCIDRSloppy), with its field paths and messages; nothing is stored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { nonSpecialIpProblems, parseCidrSloppy, parseIpSloppy } from '../../../internal/registry/schema/ip-address.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

type Json = Record<string, unknown>;
type Status = { details?: { causes?: { field: string; message: string }[] } };

async function causes(path: string, body: Json): Promise<[string, string][]> {
  const r = await s.client.call('POST', path, { body });
  assert.equal(r.status, 422, r.text);
  const name = (body.metadata as { name: string }).name;
  assert.equal((await s.client.call('GET', `${path}/${name}`)).status, 404, 'nothing is stored');
  return ((r.json as Status).details?.causes ?? []).map((c) => [c.field, c.message]);
}

test('addresses are read as Go\'s sloppy parser reads them', () => {
  assert.deepEqual(parseIpSloppy('010.1.1.1')?.slice(12), [10, 1, 1, 1]);
  for (const bad of ['999.1.1.1', '1.2.3', 'fe80::1%eth0', '[::1]', '1::2::3', ' 1.2.3.4', '::ffff:1.2.3']) assert.equal(parseIpSloppy(bad), undefined, bad);
  assert.deepEqual(parseIpSloppy('::ffff:127.0.0.1')?.slice(12), [127, 0, 0, 1]);
  assert.deepEqual(nonSpecialIpProblems('::ffff:127.0.0.1'), ['may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(nonSpecialIpProblems('::'), ['may not be unspecified (::)']);
  assert.deepEqual(nonSpecialIpProblems('fe80::1'), ['may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
  assert.deepEqual(nonSpecialIpProblems('10.0.0.1'), []);
  assert.equal(parseCidrSloppy('10.0.0.0/33'), undefined);
  assert.equal(parseCidrSloppy('10.0.0.0/8')?.prefix, 8);
  assert.equal(parseCidrSloppy('2001:db8::/129'), undefined);
});

test('a Service\'s external IPs and load balancer source ranges', async () => {
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }], externalIPs: ['999.1.1.1', '127.0.0.1', '10.1.2.3'], loadBalancerSourceRanges: ['10.0.0.0/8', '1.2.3.4'] } };
  assert.deepEqual(await causes('/api/v1/namespaces/default/services', body), [
    ['spec.externalIPs[0]', 'Invalid value: "999.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
    ['spec.externalIPs[1]', 'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'],
    ['spec.LoadBalancerSourceRanges', "Forbidden: may only be used when `type` is 'LoadBalancer'"],
    ['spec.LoadBalancerSourceRanges', 'Invalid value: "[10.0.0.0/8 1.2.3.4]": must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 '],
  ]);
});

test('Endpoints addresses are IPs that are not loopback or link-local, ports named and in range', async () => {
  const body = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ep' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '169.254.1.1' }, { ip: 'nope' }], ports: [{ port: 80 }, { name: 'b', port: 0 }] }, { ports: [{ port: 1 }] }] };
  assert.deepEqual(await causes('/api/v1/namespaces/default/endpoints', body), [
    ['subsets[0].addresses[1].ip', 'Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ['subsets[0].addresses[2].ip', 'Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
    ['subsets[0].addresses[2].ip', 'Invalid value: "nope": must be a valid IP address'],
    ['subsets[0].ports[0].name', 'Required value'],
    ['subsets[0].ports[1].port', 'Invalid value: 0: must be between 1 and 65535, inclusive'],
    ['subsets[1]', 'Required value: must specify `addresses` or `notReadyAddresses`'],
  ]);
});

test('EndpointSlice addresses are of the slice\'s address type and not special', async () => {
  const body = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'es' }, addressType: 'IPv4', endpoints: [{ addresses: ['2001:db8::1'] }, { addresses: ['0.0.0.0'] }] };
  assert.deepEqual(await causes('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', body), [
    ['endpoints[0].addresses[0]', 'Invalid value: "2001:db8::1": must be a valid IPv4 address'],
    ['endpoints[1].addresses[0]', 'Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)'],
  ]);
});

test('a Node\'s pod CIDRs are CIDRs, one per family', async () => {
  assert.deepEqual(await causes('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: { podCIDR: '10.0.0.0/33' } }), [
    ['spec.podCIDRs[0]', 'Invalid value: []string{"10.0.0.0/33"}: must be valid CIDR'],
  ]);
  assert.deepEqual(await causes('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' }, spec: { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] } }), [
    ['spec.podCIDRs', 'Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family'],
  ]);
  const ok = await s.client.call('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n3' }, spec: { podCIDRs: ['10.0.0.0/24', 'fd00::/64'] } } });
  assert.equal(ok.status, 201, ok.text);
});

test('a pod\'s status IPs are checked on status updates, one per family', async () => {
  const path = '/api/v1/namespaces/default/pods';
  assert.equal((await s.client.call('POST', path, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ips' }, spec: { containers: [{ name: 'c', image: 'i' }] } } })).status, 201);
  const bad = await s.client.call('PATCH', `${path}/ips/status`, { body: { status: { podIP: '999.1.1.1' } }, contentType: 'application/merge-patch+json' });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual((bad.json as Status).details?.causes?.map((c) => [c.field, c.message]), [['status.podIPs[0]', 'Invalid value: "999.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']]);
  const twice = await s.client.call('PATCH', `${path}/ips/status`, { body: { status: { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1' }] } }, contentType: 'application/merge-patch+json' });
  assert.deepEqual((twice.json as Status).details?.causes?.map((c) => [c.field, c.message]), [
    ['status.podIPs', 'Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"10.0.0.1"}}: may specify no more than one IP for each IP family'],
    ['status.podIPs[1]', 'Duplicate value: core.PodIP{IP:"10.0.0.1"}'],
  ]);
  const good = await s.client.call('PATCH', `${path}/ips/status`, { body: { status: { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] } }, contentType: 'application/merge-patch+json' });
  assert.equal(good.status, 200, good.text);
});

test('the kubernetes Endpoints may list a loopback advertise address (a development cluster)', async () => {
  const r = await s.client.call('PUT', '/api/v1/namespaces/default/endpoints/kubernetes', { body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 6443 }] }] } });
  assert.ok(r.status === 200 || r.status === 201, r.text);
});
