// A body nested thousands of levels deep (in a free-form field the server keeps) is a 400, never a
// 500 from a walk that overflowed its stack: refused at decode, for creates and every patch type.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyNestingDepthMax } from '../../../internal/apiserver/limits.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const path = '/apis/apps/v1/namespaces/default/controllerrevisions';
const nested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const revision = (name: string, data: string): string => `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"${name}"},"revision":1,"data":${data}}`;

async function send(method: string, url: string, body: string, contentType = 'application/json'): Promise<{ status: number; text: string }> {
  // A string body is sent as it is.
  const r = await s.client.call(method, url, { body, contentType });
  return { status: r.status, text: r.text };
}

test('an object nested as deep as the limit allows is stored', async () => {
  // The data field sits 1 level inside the object: the whole body nests one more.
  const r = await send('POST', path, revision('at-limit', nested(bodyNestingDepthMax - 1)));
  assert.equal(r.status, 201, r.text.slice(0, 300));
});

test('bodies nested 2,000, 10,000 and 100,000 deep are a 400 and nothing is stored', async () => {
  for (const depth of [2000, 10_000, 100_000]) {
    const created = await send('POST', path, revision(`deep-${depth}`, nested(depth)));
    assert.equal(created.status, 400, created.text.slice(0, 300));
    assert.match(created.text, /exceeded max depth/);
    assert.equal((await s.client.call('GET', `${path}/deep-${depth}`)).status, 404);
    for (const [type, patch] of [
      ['application/merge-patch+json', `{"data":${nested(depth)}}`],
      ['application/strategic-merge-patch+json', `{"data":${nested(depth)}}`],
      ['application/json-patch+json', `[{"op":"add","path":"/data/b","value":${nested(depth)}}]`],
    ] as const) {
      const patched = await send('PATCH', `${path}/at-limit`, patch, type);
      assert.equal(patched.status, 400, `${type}: ${patched.text.slice(0, 300)}`);
    }
  }
});

test('a YAML body nested past the limit is a 400 naming the depth, not the stack overflow of a walk', async () => {
  for (const depth of [bodyNestingDepthMax + 1, 5000]) {
    const flow = '{a: '.repeat(depth) + '1' + '}'.repeat(depth);
    const yaml = `apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: yaml-deep-${depth}\nrevision: 1\ndata: ${flow}\n`;
    const r = await send('POST', path, yaml, 'application/yaml');
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(r.text, /exceeded max depth/);
    assert.doesNotMatch(r.text, /call stack/);
    assert.equal((await s.client.call('GET', `${path}/yaml-deep-${depth}`)).status, 404);
  }
});
