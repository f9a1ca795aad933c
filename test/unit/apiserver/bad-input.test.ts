import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

/** A small deterministic generator, so a failure replays. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const weird: unknown[] = [null, 0, -1, 1.5, 'x', '', true, [], [1, 'a'], {}, { a: { b: [] } }, 'Bad_Name!', 2 ** 60];
const podSpec = { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }] };
const bases: { path: string; body: Record<string, unknown> }[] = [
  { path: '/api/v1/namespaces/default/configmaps', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f', labels: { a: 'b' } }, data: { k: 'v' } } },
  { path: '/api/v1/namespaces/default/pods', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'f' }, spec: podSpec } },
  { path: '/api/v1/namespaces/default/services', body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'f' }, spec: { ports: [{ port: 80 }], selector: { a: 'b' } } } },
  { path: '/apis/apps/v1/namespaces/default/deployments', body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'f' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: podSpec } } } },
];

/** Replaces one random node of `value` (by walking random keys) with `replacement`. */
function mutate(value: Record<string, unknown>, random: () => number, replacement: unknown): void {
  let node: Record<string, unknown> | unknown[] = value;
  for (let depth = 0; depth < 6; depth++) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[Math.floor(random() * keys.length)] ?? '';
    const child = (node as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null || random() < 0.3) {
      (node as Record<string, unknown>)[key] = replacement;
      return;
    }
    node = child as Record<string, unknown>;
  }
}

test('mutated objects of every shape get a 4xx or succeed, never a 5xx', async () => {
  const random = lcg(Number(process.env.ORCH_FUZZ_SEED ?? 42));
  for (let i = 0; i < 120; i++) {
    const base = bases[i % bases.length];
    assert.ok(base);
    const body = structuredClone(base.body);
    (body.metadata as Record<string, unknown>).name = `f${i}`;
    mutate(body, random, weird[Math.floor(random() * weird.length)]);
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      const path = method === 'POST' ? base.path : `${base.path}/f${i}`;
      const contentType = method === 'PATCH' ? 'application/strategic-merge-patch+json' : 'application/json';
      const res = await s.client.call(method, path, { body, contentType });
      assert.ok(res.status < 500, `${method} ${path} ${JSON.stringify(body)} -> ${res.status} ${res.text}`);
    }
  }
});
