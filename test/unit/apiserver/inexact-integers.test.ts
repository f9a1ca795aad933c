// An integer a Go client decodes exactly but a double would change (past 2^53 - 1) is refused
// with a 400 wherever it would land (create, PUT, every patch type, apply, YAML), never stored
// rounded; integers a double keeps round-trip digit for digit. Bodies are sent and answers read as
// text: JSON.parse here would round them too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { changedByDouble, inexactJsonIntegers } from '../../../internal/apiserver/inexact-integers.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const jobs = '/apis/batch/v1/namespaces/default/jobs';
const revisions = '/apis/apps/v1/namespaces/default/controllerrevisions';
const job = (name: string, deadline: string): string =>
  `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"${name}"},"spec":{"activeDeadlineSeconds":${deadline},"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"a","image":"nginx"}]}}}}`;
const jobYaml = (name: string, deadline: string): string =>
  `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: ${name}\nspec:\n  activeDeadlineSeconds: ${deadline}\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: a\n        image: nginx\n`;
const refusal = /^Job in version "v1" cannot be handled as a Job: the integer 9007199254740993 at spec\.activeDeadlineSeconds cannot be represented exactly: .* would store it as 9007199254740992$/;

async function send(method: string, url: string, body: string, contentType = 'application/json'): Promise<{ status: number; text: string; message: string }> {
  const r = await s.client.call(method, url, { body, contentType });
  return { status: r.status, text: r.text, message: (r.json as { message?: string } | undefined)?.message ?? '' };
}

/** The activeDeadlineSeconds of a stored Job as its JSON text has it. */
async function storedDeadline(name: string): Promise<string | undefined> {
  const r = await s.client.call('GET', `${jobs}/${name}`);
  return /"activeDeadlineSeconds":(-?\d+)/.exec(r.text)?.[1];
}

test('the JSON scan finds the integer literals a double changes, and only those', () => {
  const text = '{"a":9007199254740993,"b":"9007199254740993","c":[-9007199254740993,9007199254740992,9007199254740991],"d":1152921504606846976,"e":9007199254740993.0,"f":9223372036854775808,"g":1e300}';
  // Past int64 is noted too, for the words of Go's own error.
  assert.deepEqual([...inexactJsonIntegers(text).values()], ['9007199254740993', '-9007199254740993', '1152921504606846976', '9223372036854775808']);
  assert.equal(inexactJsonIntegers('{"a":"12345678901234567890"}').size, 0, 'digits inside a string are no number');
  // Kept: the shortest text of their double is their own; past int64 is Go's error, not this one.
  for (const kept of [2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n, 1152921504606847000n, 2n ** 63n, -(2n ** 63n) - 1n]) assert.equal(changedByDouble(kept), false, String(kept));
  for (const changed of [2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 60n]) assert.equal(changedByDouble(changed), true, String(changed));
});

test('a create with an int64 past 2^53 that a double would round is a 400 naming the field, and nothing is stored', async () => {
  const r = await send('POST', jobs, job('rounded', '9007199254740993'));
  assert.equal(r.status, 400, r.text);
  assert.match(r.message, refusal);
  assert.equal((await s.client.call('GET', `${jobs}/rounded`)).status, 404);
});

test('2^53 - 1, 2^53 and 9223372036854775000 are stored and served digit for digit', async () => {
  for (const [name, value] of [['safe-max', '9007199254740991'], ['two-53', '9007199254740992'], ['near-int64', '9223372036854775000']] as const) {
    const r = await send('POST', jobs, job(name, value));
    assert.equal(r.status, 201, r.text);
    assert.equal(await storedDeadline(name), value);
  }
  const data = '{"max":9007199254740991,"min":-9007199254740991}';
  const r = await send('POST', revisions, `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"exact"},"revision":9007199254740991,"data":${data}}`);
  assert.equal(r.status, 201, r.text);
  const text = (await s.client.call('GET', `${revisions}/exact`)).text;
  assert.match(text, /"revision":9007199254740991[,}]/);
  assert.match(text, /"data":\{"max":9007199254740991,"min":-9007199254740991\}/);
});

test('2^63 - 1 and -2^63 (int64 to Go, changed by a double) are refused as inexact; 2^63 stays Go\'s int64 overflow error', async () => {
  for (const value of ['9223372036854775807', '-9223372036854775808']) {
    const r = await send('POST', jobs, job('edge', value));
    assert.equal(r.status, 400, r.text);
    assert.match(r.message, new RegExp(`the integer ${value} at spec\\.activeDeadlineSeconds cannot be represented exactly`));
  }
  const over = await send('POST', jobs, job('edge', '9223372036854775808'));
  assert.equal(over.status, 400, over.text);
  assert.match(over.message, /^Job in version "v1" cannot be handled as a Job: json: cannot unmarshal number 9223372036854775808 into Go struct field JobSpec\.spec\.activeDeadlineSeconds of type int64$/);
  assert.equal((await s.client.call('GET', `${jobs}/edge`)).status, 404);
});

test('an int32 field given a rounded literal keeps Go\'s own int32 error', async () => {
  const body = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"port"},"spec":{"containers":[{"name":"a","image":"nginx","ports":[{"containerPort":9007199254740993}]}]}}';
  const r = await send('POST', '/api/v1/namespaces/default/pods', body);
  assert.equal(r.status, 400, r.text);
  assert.match(r.message, /: json: cannot unmarshal number 9007199254740993 into Go struct field ContainerPort\.spec\.containers\.ports\.containerPort of type int32$/);
});

test('merge, strategic merge and JSON patches putting a rounded literal anywhere are a 400, and the stored value stays', async () => {
  assert.equal((await send('POST', jobs, job('patched', '100'))).status, 201);
  const patches: [string, string][] = [
    ['application/merge-patch+json', '{"spec":{"activeDeadlineSeconds":9007199254740993}}'],
    ['application/strategic-merge-patch+json', '{"spec":{"activeDeadlineSeconds":9007199254740993}}'],
    ['application/json-patch+json', '[{"op":"replace","path":"/spec/activeDeadlineSeconds","value":9007199254740993}]'],
    // Moved by the patch: the literal is followed to where it lands.
    ['application/json-patch+json', '[{"op":"add","path":"/metadata/annotations","value":{}},{"op":"replace","path":"/spec/activeDeadlineSeconds","value":[9007199254740993]},{"op":"move","from":"/spec/activeDeadlineSeconds/0","path":"/spec/activeDeadlineSeconds"}]'],
  ];
  for (const [type, patch] of patches) {
    const r = await send('PATCH', `${jobs}/patched`, patch, type);
    assert.equal(r.status, 400, `${type} ${patch}: ${r.text}`);
    assert.match(r.message, refusal, type);
  }
  assert.equal(await storedDeadline('patched'), '100');
  // The control: the same patch with a literal a double keeps is written.
  const kept = await send('PATCH', `${jobs}/patched`, '{"spec":{"activeDeadlineSeconds":9007199254740991}}', 'application/merge-patch+json');
  assert.equal(kept.status, 200, kept.text);
  assert.equal(await storedDeadline('patched'), '9007199254740991');
});

test('a rounded literal in a free-form field (ControllerRevision data) is refused too', async () => {
  const r = await send('POST', revisions, '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"free"},"revision":1,"data":{"spec":{"n":[1,-9007199254740993]}}}');
  assert.equal(r.status, 400, r.text);
  assert.match(r.message, /the integer -9007199254740993 at data\.spec\.n\[1\] cannot be represented exactly/);
});

test('YAML creates and server-side apply refuse a rounded integer in any YAML form, and keep exact ones', async () => {
  for (const literal of ['9007199254740993', '0x20000000000001', '9_007_199_254_740_993']) {
    const created = await send('POST', jobs, jobYaml('yaml', literal), 'application/yaml');
    assert.equal(created.status, 400, `${literal}: ${created.text}`);
    assert.match(created.message, refusal, literal);
    const applied = await send('PATCH', `${jobs}/yaml?fieldManager=tool`, jobYaml('yaml', literal), 'application/apply-patch+yaml');
    assert.equal(applied.status, 400, `${literal}: ${applied.text}`);
    assert.match(applied.message, refusal, literal);
  }
  assert.equal((await s.client.call('GET', `${jobs}/yaml`)).status, 404);
  const applied = await send('PATCH', `${jobs}/yaml?fieldManager=tool`, jobYaml('yaml', '9007199254740991'), 'application/apply-patch+yaml');
  assert.equal(applied.status, 201, applied.text);
  assert.equal(await storedDeadline('yaml'), '9007199254740991');
  const put = await send('PUT', `${jobs}/yaml`, jobYaml('yaml', '-9007199254740993').replace('activeDeadlineSeconds', 'ttlSecondsAfterFinished: 1\n  activeDeadlineSeconds'), 'application/yaml');
  assert.equal(put.status, 400, put.text);
});
