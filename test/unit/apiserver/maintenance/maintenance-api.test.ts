// The maintenance API's handlers (docs/operations.md) on an API server over a fake backend, as the
// admin: every route's answer, every refusal's Status, and that a refused call changed nothing.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { MaintenanceBackend } from '../../../../internal/apiserver/maintenance/backend.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { FakeBackend } from './fake-backend.ts';

type Json = Record<string, unknown>;
let server: TestServer;
let backend: FakeBackend;

before(async () => {
  // Each test gets a new backend: the server holds a stand-in that calls the current one.
  const current = new Proxy({} as MaintenanceBackend, {
    get: (_, key) => {
      const value: unknown = Reflect.get(backend, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(backend) : value;
    },
  });
  server = await startTestServer({ maintenance: current });
});

after(() => server.close());

beforeEach(() => {
  backend = new FakeBackend();
});

function call(method: string, path: string, body?: unknown, contentType?: string) {
  return server.client.call(method, path, { ...(body === undefined ? {} : { body }), ...(contentType === undefined ? {} : { contentType }) });
}

/** The Status's reason, message and the fields its causes name. */
function statusOf(json: unknown): { reason: string; message: string; fields: string[] } {
  const status = json as { reason: string; message: string; details?: { causes?: { field?: string }[] } };
  return { reason: status.reason, message: status.message, fields: (status.details?.causes ?? []).map((c) => c.field ?? '') };
}

test('GET status answers the replica status as JSON', async () => {
  const res = await call('GET', '/orch/v1/status');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(res.json, await backend.status());
});

test('GET members answers the leader and the members, on a follower too', async () => {
  backend.leader = 'orch-2';
  const res = await call('GET', '/orch/v1/members');
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, { leader: 'orch-2', members: backend.group });
});

test('POST members adds a learner by default and answers 201 with the member', async () => {
  const res = await call('POST', '/orch/v1/members', { name: 'orch-5', peerAddress: 'h5.example:6543' });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.json, { name: 'orch-5', peerAddress: 'h5.example:6543', role: 'learner' });
  const voter = await call('POST', '/orch/v1/members', { name: 'orch-6', peerAddress: '[::1]:6543', learner: false });
  assert.equal(voter.status, 201, voter.text);
  assert.deepEqual(backend.changes, ['add orch-5 learner', 'add orch-6 voter']);
});

test('POST members of a member already there is a 409 AlreadyExists', async () => {
  const res = await call('POST', '/orch/v1/members', { name: 'orch-2', peerAddress: 'h2:6543' });
  assert.equal(res.status, 409);
  assert.equal(statusOf(res.json).reason, 'AlreadyExists');
});

test('POST members with bad fields is a 422 Invalid naming each field, and adds nothing', async () => {
  const cases: [unknown, string[]][] = [
    [{ name: 'Orch_5', peerAddress: 'h5:6543' }, ['name']],
    [{ name: 'orch-5', peerAddress: 'h5' }, ['peerAddress']],
    [{ name: 'orch-5', peerAddress: 'h5:70000' }, ['peerAddress']],
    [{ name: 'orch-5', peerAddress: '::1:6543' }, ['peerAddress']],
    [{ name: 'orch-5', peerAddress: 'h 5:6543' }, ['peerAddress']],
    [{ name: 'orch-5', peerAddress: 'h5:6543', learner: 'yes' }, ['learner']],
    [{ name: 'orch-5', peerAddress: 'h5:6543', voter: true }, ['voter']],
    [{ peerAddress: 6543 }, ['name', 'peerAddress']],
    ['{"name":"orch-5","name":"orch-6","peerAddress":"h5:6543"}', ['name']],
  ];
  for (const [body, fields] of cases) {
    const res = await call('POST', '/orch/v1/members', body);
    assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
    const status = statusOf(res.json);
    assert.equal(status.reason, 'Invalid', res.text);
    assert.deepEqual(status.fields, fields, JSON.stringify(body));
  }
  assert.deepEqual(backend.changes, []);
});

test('a body that is no JSON object is a 400, of another media type a 415, too large a 413: never a 500', async () => {
  for (const body of ['[]', '"orch-5"', 'null', '{"name":', '']) {
    const res = await call('POST', '/orch/v1/members', body);
    assert.equal(res.status, 400, `${body}: ${res.text}`);
  }
  const yaml = await call('POST', '/orch/v1/members', 'name: orch-5\npeerAddress: h5:6543\n', 'application/yaml');
  assert.equal(yaml.status, 415, yaml.text);
  const huge = await call('POST', '/orch/v1/leader', { target: 'orch-2', padding: 'x'.repeat(4 * 1024 * 1024) });
  assert.equal(huge.status, 413);
  assert.deepEqual(backend.changes, []);
});

test('POST promote makes a caught-up learner a voter', async () => {
  const res = await call('POST', '/orch/v1/members/orch-4/promote');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json, { name: 'orch-4', peerAddress: 'h4:6543', role: 'voter' });
});

test('POST promote: 404 for no such member, 400 for a voter, 409 Conflict saying how far behind a learner is', async () => {
  const missing = await call('POST', '/orch/v1/members/orch-9/promote');
  assert.equal(missing.status, 404);
  assert.equal(statusOf(missing.json).message, 'member "orch-9" not found');
  assert.equal((await call('POST', '/orch/v1/members/orch-2/promote')).status, 400);
  backend.behind.set('orch-4', 1234);
  const behind = await call('POST', '/orch/v1/members/orch-4/promote');
  assert.equal(behind.status, 409);
  assert.equal(statusOf(behind.json).reason, 'Conflict');
  assert.match(statusOf(behind.json).message, /1234 entries behind/);
  assert.deepEqual(backend.changes, []);
});

test('DELETE a member removes it; 404 for no such member; 409 for the last voter', async () => {
  const res = await call('DELETE', '/orch/v1/members/orch-2');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json, { removed: 'orch-2' });
  assert.equal((await call('DELETE', '/orch/v1/members/orch-2')).status, 404);
  const last = await call('DELETE', '/orch/v1/members/orch-1');
  assert.equal(last.status, 409);
  assert.equal(statusOf(last.json).reason, 'Conflict');
  assert.deepEqual(backend.changes, ['remove orch-2']);
});

test('POST leader hands leadership to a voter and answers once it leads', async () => {
  const res = await call('POST', '/orch/v1/leader', { target: 'orch-2' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json, { leader: 'orch-2' });
});

test('POST leader: 404 unknown target, 400 learner target, 422 bad body, 504 on timeout', async () => {
  assert.equal((await call('POST', '/orch/v1/leader', { target: 'orch-9' })).status, 404);
  assert.equal((await call('POST', '/orch/v1/leader', { target: 'orch-4' })).status, 400);
  const bad = await call('POST', '/orch/v1/leader', { target: 'Orch 2', force: true });
  assert.equal(bad.status, 422);
  assert.deepEqual(statusOf(bad.json).fields, ['force', 'target']);
  backend.transferTimesOut = true;
  const late = await call('POST', '/orch/v1/leader', { target: 'orch-2' });
  assert.equal(late.status, 504);
  assert.equal(statusOf(late.json).reason, 'Timeout');
  assert.deepEqual(backend.changes, []);
});

test('on a follower every leader-only call is a 503 naming the leader, and changes nothing', async () => {
  backend.leader = 'orch-2';
  const calls: [string, string, unknown?][] = [
    ['POST', '/orch/v1/members', { name: 'orch-5', peerAddress: 'h5:6543' }],
    ['POST', '/orch/v1/members/orch-4/promote'],
    ['DELETE', '/orch/v1/members/orch-4'],
    ['POST', '/orch/v1/leader', { target: 'orch-1' }],
  ];
  for (const [method, path, body] of calls) {
    const res = await call(method, path, body);
    assert.equal(res.status, 503, `${method} ${path}: ${res.text}`);
    assert.equal(statusOf(res.json).reason, 'ServiceUnavailable');
    assert.equal(statusOf(res.json).message, 'this replica (orch-1) is not the leader; the leader is orch-2');
    assert.equal(res.headers['retry-after'], '1');
  }
  backend.leader = null;
  const none = await call('DELETE', '/orch/v1/members/orch-4');
  assert.equal(statusOf(none.json).message, 'this replica (orch-1) is not the leader; no leader is known now');
  assert.deepEqual(backend.changes, []);
});

test('a leader that loses leadership mid-call answers the same 503', async () => {
  // The handler's check passed, the backend's own refused: the Raft node's NotLeader.
  backend.leadership = () => ({ self: 'orch-1', leader: 'orch-1' });
  backend.leader = 'orch-3';
  const res = await call('DELETE', '/orch/v1/members/orch-4');
  assert.equal(res.status, 503);
  assert.equal(statusOf(res.json).message, 'this replica (orch-1) is not the leader; the leader is orch-3');
});

test('unknown paths under /orch/ are 404 and a method a path does not take is 405', async () => {
  for (const path of ['/orch/v1/nothing', '/orch/v2/status', '/orch/v1/status/more', '/orch/v1/members/orch-4/demote', '/orch/v1/members/orch-4/promote/x']) {
    assert.equal((await call('GET', path)).status, 404, path);
  }
  const wrong: [string, string][] = [['PUT', '/orch/v1/status'], ['DELETE', '/orch/v1/members'], ['GET', '/orch/v1/members/orch-4'], ['GET', '/orch/v1/leader'], ['POST', '/orch/v1/snapshot'], ['GET', '/orch/v1/members/orch-4/promote']];
  for (const [method, path] of wrong) assert.equal((await call(method, path)).status, 405, `${method} ${path}`);
  assert.deepEqual(backend.changes, []);
});

test('a server without a maintenance backend has no /orch/ paths', async () => {
  const plain = await startTestServer();
  try {
    assert.equal((await plain.client.call('GET', '/orch/v1/status')).status, 404);
  } finally {
    await plain.close();
  }
});

test('every answer is a Status object with the code, never a 500', async () => {
  const res = await call('POST', '/orch/v1/members', { name: '', peerAddress: '' });
  const json = res.json as Json;
  assert.equal(json.kind, 'Status');
  assert.equal(json.code, 422);
  assert.deepEqual(statusOf(json).fields, ['name', 'peerAddress']);
});
