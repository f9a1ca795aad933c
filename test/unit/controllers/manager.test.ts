import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { Controller } from '../../../internal/controllers/controller.ts';
import { ControllerManager } from '../../../internal/controllers/manager.ts';

/** A controller that records its runs and waits for abort (or throws on the first `failures` runs). */
function fakeController(name: string, failures = 0): Controller & { starts: number; aborts: number } {
  const c = {
    name,
    starts: 0,
    aborts: 0,
    async run(signal: AbortSignal): Promise<void> {
      c.starts++;
      if (c.starts <= failures) throw new Error(`boom ${c.starts}`);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      c.aborts++;
    },
  };
  return c;
}

async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function manager(controllers: Controller[], isLeader: () => boolean, extra: { metricsRegistry?: Registry; logs?: string[] } = {}): ControllerManager {
  return new ControllerManager({
    controllers,
    isLeader,
    log: (m) => extra.logs?.push(m),
    pollIntervalMs: 10,
    restartBackoffMs: { min: 5, max: 40 },
    ...(extra.metricsRegistry ? { metricsRegistry: extra.metricsRegistry } : {}),
  });
}

test('controllers run only while the replica leads, and are aborted when leadership goes', async (t) => {
  let leader = false;
  const a = fakeController('a');
  const b = fakeController('b');
  const m = manager([a, b], () => leader);
  t.after(() => m.stop());
  m.start();
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(a.starts + b.starts, 0, 'nothing runs on a follower');
  leader = true;
  await eventually('both controllers started', () => a.starts === 1 && b.starts === 1);
  assert.deepEqual(m.running(), ['a', 'b']);
  leader = false;
  await eventually('both controllers aborted', () => a.aborts === 1 && b.aborts === 1 && m.running().length === 0);
  leader = true;
  await eventually('restarted with a fresh signal on regaining leadership', () => a.starts === 2 && b.starts === 2);
});

test('stop aborts running controllers and waits for them to return', async () => {
  const a = fakeController('a');
  const m = manager([a], () => true);
  m.start();
  await eventually('started', () => a.starts === 1);
  await m.stop();
  assert.equal(a.aborts, 1);
  assert.deepEqual(m.running(), []);
  m.start();
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(a.starts, 1, 'a stopped manager never starts controllers again');
});

test('a controller that throws is logged and restarted with backoff while still leader', async (t) => {
  const logs: string[] = [];
  const flaky = fakeController('flaky', 3);
  const steady = fakeController('steady');
  const m = manager([flaky, steady], () => true, { logs });
  t.after(() => m.stop());
  m.start();
  await eventually('restarted after three failures', () => flaky.starts === 4);
  assert.equal(logs.filter((l) => l.includes('controller flaky failed')).length, 3);
  assert.equal(steady.starts, 1, 'one failing controller does not restart the others');
  assert.deepEqual(m.running(), ['flaky', 'steady']);
});

test('a failing controller is not restarted once leadership is lost', async (t) => {
  let leader = true;
  const broken: Controller & { starts: number } = {
    name: 'broken',
    starts: 0,
    run() {
      broken.starts++;
      leader = false;
      return Promise.reject(new Error('always'));
    },
  };
  const m = manager([broken], () => leader);
  t.after(() => m.stop());
  m.start();
  await eventually('ran once', () => broken.starts === 1);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(broken.starts, 1);
});

test('the orch_controllers_running gauge is 1 for running controllers and 0 otherwise', async (t) => {
  let leader = false;
  const registry = new Registry();
  const m = manager([fakeController('namespace')], () => leader, { metricsRegistry: registry });
  t.after(() => m.stop());
  m.start();
  const value = async (): Promise<string> => {
    const text = await registry.metrics();
    return /orch_controllers_running\{controller="namespace"\} (\d)/.exec(text)?.[1] ?? 'missing';
  };
  assert.equal(await value(), '0');
  leader = true;
  await eventually('gauge 1 on the leader', async () => (await value()) === '1');
  leader = false;
  await eventually('gauge 0 after losing leadership', async () => (await value()) === '0');
});
