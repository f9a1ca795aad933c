// kube's tokencleaner: an expired bootstrap token Secret is deleted (kube-system and orch-system),
// at its expiry by a timer rather than at the next resync; other Secrets are left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenCleaner } from '../../../../internal/controllers/bootstrap/token-cleaner.ts';
import { eventually, settle } from '../garbage-collector-fixture.ts';
import { bootstrapFixture } from './bootstrap-fixture.ts';

const rfc3339 = (ms: number): string => new Date(ms).toISOString();
const longResyncMs = 600_000;

test('expired tokens in both namespaces are deleted; live tokens and other Secrets stay', async (t) => {
  const f = await bootstrapFixture(t);
  await f.token('kube-system', 'aaaaaa', '0123456789abcdef', { expiration: rfc3339(Date.now() - 1000) });
  await f.token('orch-system', 'bbbbbb', '0123456789abcdef', { expiration: 'not a time' });
  await f.token('kube-system', 'cccccc', '0123456789abcdef', { expiration: rfc3339(Date.now() + 3_600_000) });
  await f.token('orch-system', 'dddddd', '0123456789abcdef');
  await f.store('', 'secrets').create('kube-system', { metadata: { name: 'other' }, stringData: { expiration: rfc3339(0) } }, { fieldManager: 'test' });
  f.run(createTokenCleaner(f.deps, { resyncIntervalMs: longResyncMs }));
  await eventually('expired tokens deleted', async () => (await f.find('secrets', 'kube-system', 'bootstrap-token-aaaaaa')) === undefined && (await f.find('secrets', 'orch-system', 'bootstrap-token-bbbbbb')) === undefined);
  await settle(200);
  assert.ok(await f.find('secrets', 'kube-system', 'bootstrap-token-cccccc'));
  assert.ok(await f.find('secrets', 'orch-system', 'bootstrap-token-dddddd'));
  assert.ok(await f.find('secrets', 'kube-system', 'other'));
  assert.deepEqual(f.logs, []);
});

test('a token is deleted at its expiry by a timer, not at the next resync', async (t) => {
  const f = await bootstrapFixture(t);
  f.run(createTokenCleaner(f.deps, { resyncIntervalMs: longResyncMs }));
  await settle(100);
  // Created after the first pass: its event brings a pass that arms the timer.
  const expiresAtMs = Date.now() + 700;
  await f.token('orch-system', 'eeeeee', '0123456789abcdef', { expiration: rfc3339(expiresAtMs) });
  await settle(300);
  assert.ok(await f.find('secrets', 'orch-system', 'bootstrap-token-eeeeee'), 'still there before its expiry');
  await eventually('deleted once expired', async () => (await f.find('secrets', 'orch-system', 'bootstrap-token-eeeeee')) === undefined, 3_000);
  assert.ok(Date.now() >= expiresAtMs);
});

test('the clock is injectable: a clock two hours ahead deletes a token that expires in one', async (t) => {
  const f = await bootstrapFixture(t);
  await f.token('kube-system', 'ffffff', '0123456789abcdef', { expiration: rfc3339(Date.now() + 3_600_000) });
  f.run(createTokenCleaner(f.deps, { resyncIntervalMs: longResyncMs, clock: () => Date.now() + 2 * 3_600_000 }));
  await eventually('deleted', async () => (await f.find('secrets', 'kube-system', 'bootstrap-token-ffffff')) === undefined);
});
