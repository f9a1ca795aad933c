import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalIp, IpRange, parsePortRange, portStaticBand } from '../../../internal/registry/core/service/ip-range.ts';

test('addresses print as Go prints them, one spelling per address', () => {
  assert.equal(canonicalIp('10.96.0.1'), '10.96.0.1');
  assert.equal(canonicalIp('FD00:0:0::0001'), 'fd00::1');
  assert.equal(canonicalIp('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1', 'the first of two equal zero runs is compressed');
  assert.equal(canonicalIp('1:2:3:4:5:6:7:8'), '1:2:3:4:5:6:7:8');
  assert.equal(canonicalIp('::'), '::');
  for (const bad of ['10.96.0.256', '10.96.0', 'fd00::1::2', 'fe80::1%eth0', 'None', '']) assert.equal(canonicalIp(bad), undefined, bad);
});

test('a range leaves out the network address (and the IPv4 broadcast) and keeps its static band', () => {
  const v4 = IpRange.parse('10.96.0.5/12');
  assert.equal(v4.cidr, '10.96.0.0/12', 'host bits are cleared');
  assert.equal(v4.size, 2 ** 20 - 2);
  assert.equal(v4.staticBand, 256);
  assert.equal(v4.addressAt(0), '10.96.0.1');
  assert.equal(v4.addressAt(v4.size - 1), '10.111.255.254');
  const at = (ip: string) => v4.offsetOf({ family: 'IPv4', value: BigInt(ip.split('.').reduce((n, p) => n * 256 + Number(p), 0)) });
  assert.equal(at('10.96.0.0'), undefined);
  assert.equal(at('10.111.255.255'), undefined);
  assert.equal(at('10.96.1.0'), 255);
  const v6 = IpRange.parse('fd00:10:96::/112');
  assert.equal(v6.size, 65535);
  assert.equal(v6.addressAt(0), 'fd00:10:96::1');
  assert.equal(v6.addressAt(65534), 'fd00:10:96::ffff');
  assert.equal(IpRange.parse('10.0.0.0/24').staticBand, 16);
  assert.equal(IpRange.parse('10.0.0.0/30').staticBand, 0);
  assert.throws(() => IpRange.parse('10.0.0.0/33'), /is not a CIDR/);
});

test('node port ranges take min-max, base+offset or one port; the static band is min(max(16, size/32), 128)', () => {
  assert.deepEqual(parsePortRange('30000-32767'), { base: 30000, size: 2768 });
  assert.deepEqual(parsePortRange('30000+767'), { base: 30000, size: 768 });
  assert.deepEqual(parsePortRange('31000'), { base: 31000, size: 1 });
  assert.equal(portStaticBand({ base: 30000, size: 2768 }), 86);
  assert.equal(portStaticBand({ base: 30000, size: 10000 }), 128);
  assert.equal(portStaticBand({ base: 30000, size: 100 }), 16);
  assert.equal(portStaticBand({ base: 30000, size: 16 }), 0);
  for (const bad of ['', 'a-b', '0-10', '100-50', '65535-65536']) assert.throws(() => parsePortRange(bad), /is not a port range/, bad);
});
