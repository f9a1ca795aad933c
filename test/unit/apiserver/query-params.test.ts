// Query parameters read as kube-apiserver reads them: apimachinery's bool and int64 conversions
// (runtime/conversion.go), Go's time.ParseDuration for `timeout`, option validation as a 422
// naming its field (meta/v1/validation), DeleteOptions from the body or else the query, and
// /version readable by anyone (system:public-info-viewer).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tlsConnect } from 'node:tls';
import { boolParam, goQuote, int64Param, optionalBoolParam, parseGoDuration, prettyOf, requestTimeoutMs } from '../../../internal/apiserver/query-params.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import type { ApiResponse } from '../../support/api-client.ts';
import { startTestServer, testToken, type TestServer } from './harness.ts';

const q = (text: string): URLSearchParams => new URLSearchParams(text);

describe('parsing, as apimachinery and Go parse', () => {
  test('a bool is false only when absent, "0" or "false" in any case; an empty value is true', () => {
    for (const text of ['watch=true', 'watch=True', 'watch=TRUE', 'watch=1', 'watch=t', 'watch=yes', 'watch=', 'watch', 'watch=true&watch=false']) assert.equal(boolParam(q(text), 'watch'), true, text);
    for (const text of ['', 'other=1', 'watch=false', 'watch=False', 'watch=FALSE', 'watch=fAlSe', 'watch=0', 'watch=fal%C5%BFe', 'watch=0&watch=1']) assert.equal(boolParam(q(text), 'watch'), false, text);
    assert.equal(optionalBoolParam(q(''), 'orphanDependents'), undefined);
    assert.equal(optionalBoolParam(q('orphanDependents='), 'orphanDependents'), true);
    assert.equal(optionalBoolParam(q('orphanDependents=0'), 'orphanDependents'), false);
  });

  test('an int64 is what strconv.ParseInt takes; its refusal is a 400 with Go\'s message', () => {
    assert.equal(int64Param(q(''), 'limit'), undefined);
    assert.equal(int64Param(q('limit=%2B5'), 'limit'), 5);
    assert.equal(int64Param(q('limit=-7'), 'limit'), -7);
    assert.equal(int64Param(q('limit=9223372036854775807'), 'limit'), Number.MAX_SAFE_INTEGER, 'past 2^53 - 1 is clamped');
    assert.equal(int64Param(q('limit=-9223372036854775808'), 'limit'), -Number.MAX_SAFE_INTEGER);
    const rejects = (text: string, message: string): void =>
      assert.throws(() => int64Param(q(text), 'limit'), (err: unknown) => err instanceof StatusError && err.code === 400 && err.reason === 'BadRequest' && err.message === message, text);
    rejects('limit=', 'strconv.ParseInt: parsing "": invalid syntax');
    rejects('limit=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax');
    rejects('limit=%205', 'strconv.ParseInt: parsing " 5": invalid syntax');
    rejects('limit=1_000', 'strconv.ParseInt: parsing "1_000": invalid syntax');
    rejects('limit=9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range');
    rejects('limit=-9223372036854775809', 'strconv.ParseInt: parsing "-9223372036854775809": value out of range');
    rejects('limit=99999999999999999999x', 'strconv.ParseInt: parsing "99999999999999999999x": value out of range');
  });

  test('a duration is Go\'s time.ParseDuration, in nanoseconds', () => {
    const cases: [string, bigint][] = [
      ['30s', 30_000_000_000n], ['1m', 60_000_000_000n], ['1h2m3.5s', 3_723_500_000_000n], ['500ms', 500_000_000n], ['0', 0n], ['-0', 0n], ['+5s', 5_000_000_000n],
      ['-1.5h', -5_400_000_000_000n], ['.5s', 500_000_000n], ['1.s', 1_000_000_000n], ['1us', 1000n], ['1\u00b5s', 1000n], ['1\u03bcs', 1000n], ['2ns', 2n], ['1h1h', 7_200_000_000_000n],
      ['9223372036854775807ns', 9_223_372_036_854_775_807n], ['-9223372036854775808ns', -9_223_372_036_854_775_808n],
    ];
    for (const [text, ns] of cases) assert.equal(parseGoDuration(text), ns, text);
    const errors: [string, string][] = [
      ['', 'time: invalid duration ""'], ['abc', 'time: invalid duration "abc"'], ['1', 'time: missing unit in duration "1"'], ['1x', 'time: unknown unit "x" in duration "1x"'],
      ['.s', 'time: invalid duration ".s"'], ['-', 'time: invalid duration "-"'], ['1s ', 'time: unknown unit "s " in duration "1s "'], ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
      ['3000000h', 'time: invalid duration "3000000h"'], ['1\u00e9', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ];
    for (const [text, message] of errors) assert.throws(() => parseGoDuration(text), { message }, text);
  });

  test('a request timeout is `timeout` when positive and shorter than the maximum; 400 when no duration', () => {
    assert.equal(requestTimeoutMs(q(''), 60_000), 60_000);
    assert.equal(requestTimeoutMs(q('timeout='), 60_000), 60_000);
    assert.equal(requestTimeoutMs(q('timeout=32s'), 60_000), 32_000);
    assert.equal(requestTimeoutMs(q('timeout=0s'), 60_000), 60_000, '0 is no timeout of the client\'s');
    assert.equal(requestTimeoutMs(q('timeout=-1s'), 60_000), 60_000);
    assert.equal(requestTimeoutMs(q('timeout=2m'), 60_000), 60_000, 'at most the server\'s');
    assert.throws(() => requestTimeoutMs(q('timeout=5'), 60_000), (err: unknown) => err instanceof StatusError && err.code === 400 && err.message === 'invalid timeout specified in the request URL - time: missing unit in duration "5"');
  });

  test('goQuote is strconv.Quote; pretty is strconv.ParseBool, else the User-Agent', () => {
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('\u0007\n\u007f\u00e9\u00ad\u{1f600}'), '"\\a\\n\\x7f\u00e9\\u00ad\u{1f600}"');
    assert.equal(prettyOf(q('pretty=1'), undefined), true);
    assert.equal(prettyOf(q('pretty=T'), undefined), true);
    assert.equal(prettyOf(q('pretty=yes'), 'curl/8'), false, 'a value ParseBool refuses is false');
    assert.equal(prettyOf(q('pretty=0'), 'curl/8'), false);
    assert.equal(prettyOf(q('pretty='), 'curl/8'), true, 'an empty value leaves it to the User-Agent');
    assert.equal(prettyOf(q(''), 'curlish'), true);
    assert.equal(prettyOf(q(''), 'Mozilla/4.0'), false);
    assert.equal(prettyOf(q(''), 'kubectl/v1.28'), false);
  });
});

let s: TestServer;
const cmPath = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { k: 'v' } });

interface StatusBody {
  kind: string;
  code: number;
  reason: string;
  message: string;
  details?: { name?: string; group?: string; kind?: string; causes?: { reason: string; message: string; field?: string }[] };
}

function expectStatus(res: ApiResponse, code: number, reason: string, message?: string | RegExp): StatusBody {
  assert.equal(res.status, code, res.text);
  const st = res.json as StatusBody;
  assert.equal(st.kind, 'Status');
  assert.equal(st.code, code);
  assert.equal(st.reason, reason);
  if (typeof message === 'string') assert.equal(st.message, message);
  else if (message) assert.match(st.message, message);
  return st;
}

async function create(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  assert.equal((await s.client.call('POST', cmPath, { body: cm(name, extra) })).status, 201);
}

before(async () => {
  s = await startTestServer();
  await create('base');
});
after(() => s.close());

describe('booleans: watch, allowWatchBookmarks, sendInitialEvents', () => {
  // A watch ends after timeoutSeconds with the existing objects as ADDED events; a list is a ConfigMapList.
  const isWatch = (res: ApiResponse): boolean => res.text.startsWith('{"type":"ADDED"');

  test('watch=True (the Python client), watch=1, a bare ?watch and ?watch= all watch', async () => {
    const answers = await Promise.all(['watch=True', 'watch=1', 'watch=t', 'watch', 'watch='].map((w) => s.client.call('GET', `${cmPath}?${w}&timeoutSeconds=1`)));
    for (const res of answers) {
      assert.equal(res.status, 200, res.text);
      assert.ok(isWatch(res), res.text.slice(0, 100));
    }
  });

  test('watch=false, FALSE and 0 list', async () => {
    for (const w of ['watch=false', 'watch=FALSE', 'watch=0']) {
      const res = await s.client.call('GET', `${cmPath}?${w}&timeoutSeconds=1`);
      assert.equal(res.status, 200, res.text);
      assert.equal((res.json as { kind: string }).kind, 'ConfigMapList', w);
    }
  });

  test('sendInitialEvents= (empty) is true and allowWatchBookmarks=True asks for bookmarks', async () => {
    const res = await s.client.call('GET', `${cmPath}?watch=1&sendInitialEvents=&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=True&timeoutSeconds=1&fieldSelector=metadata.name%3Dbase`);
    assert.equal(res.status, 200, res.text);
    const events = res.text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { metadata: { name?: string; annotations?: Record<string, string> } } });
    assert.deepEqual(events.slice(0, 2).map((e) => e.type), ['ADDED', 'BOOKMARK']);
    assert.equal(events[1]?.object.metadata.annotations?.['k8s.io/initial-events-end'], 'true');
    // Present, hence true: it then needs resourceVersionMatch, as any sendInitialEvents does.
    expectStatus(await s.client.call('GET', `${cmPath}?watch=1&sendInitialEvents=`), 422, 'Invalid', /^ListOptions\.meta\.k8s\.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan$/);
  });
});

describe('integers: limit, timeoutSeconds, gracePeriodSeconds', () => {
  test('a limit past 2^53 lists everything; past int64, or not an integer, is a 400; negative is no limit', async () => {
    for (const limit of ['9007199254740993', '9223372036854775807', '-1']) {
      const res = await s.client.call('GET', `${cmPath}?limit=${limit}`);
      assert.equal(res.status, 200, res.text);
      assert.equal((res.json as { metadata: { continue?: string } }).metadata.continue, undefined);
    }
    expectStatus(await s.client.call('GET', `${cmPath}?limit=9223372036854775808`), 400, 'BadRequest', 'strconv.ParseInt: parsing "9223372036854775808": value out of range');
    expectStatus(await s.client.call('GET', `${cmPath}?limit=1e3`), 400, 'BadRequest', 'strconv.ParseInt: parsing "1e3": invalid syntax');
    expectStatus(await s.client.call('GET', `${cmPath}?limit=`), 400, 'BadRequest', 'strconv.ParseInt: parsing "": invalid syntax');
    expectStatus(await s.client.call('DELETE', `${cmPath}?labelSelector=none&limit=x`), 400, 'BadRequest', 'strconv.ParseInt: parsing "x": invalid syntax');
  });

  test('timeoutSeconds that is no integer is a 400, for a watch and for a list alike; a negative one ends the watch at once', async () => {
    expectStatus(await s.client.call('GET', `${cmPath}?watch=1&timeoutSeconds=1.5`), 400, 'BadRequest', 'strconv.ParseInt: parsing "1.5": invalid syntax');
    expectStatus(await s.client.call('GET', `${cmPath}?timeoutSeconds=abc`), 400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax');
    const started = Date.now();
    assert.equal((await s.client.call('GET', `${cmPath}?watch=1&timeoutSeconds=-1`)).status, 200);
    assert.ok(Date.now() - started < 5000);
  });

  test('gracePeriodSeconds that is no integer is a 400; a negative one counts as 1 s', async () => {
    await create('grace', { finalizers: ['example.com/hold'] });
    expectStatus(await s.client.call('DELETE', `${cmPath}/grace?gracePeriodSeconds=soon`), 400, 'BadRequest', 'strconv.ParseInt: parsing "soon": invalid syntax');
    const res = await s.client.call('DELETE', `${cmPath}/grace?gracePeriodSeconds=-5`);
    assert.ok(res.status === 200 || res.status === 202, res.text);
    assert.equal((res.json as { metadata: { deletionGracePeriodSeconds?: number } }).metadata.deletionGracePeriodSeconds, 1);
  });
});

describe('DeleteOptions: orphanDependents, propagationPolicy, dryRun; from the body or else the query', () => {
  const finalizersOf = (res: ApiResponse): string[] => (res.json as { metadata: { finalizers?: string[] } }).metadata.finalizers ?? [];

  test('orphanDependents=true (or empty) orphans, false is Background; in the query or the body', async () => {
    for (const name of ['o1', 'o2', 'o3', 'o4', 'o5']) await create(name, { finalizers: ['example.com/hold'] });
    assert.deepEqual(finalizersOf(await s.client.call('DELETE', `${cmPath}/o1?orphanDependents=true`)), ['example.com/hold', 'orphan']);
    assert.deepEqual(finalizersOf(await s.client.call('DELETE', `${cmPath}/o2?orphanDependents=`)), ['example.com/hold', 'orphan']);
    assert.deepEqual(finalizersOf(await s.client.call('DELETE', `${cmPath}/o3`, { body: { orphanDependents: true } })), ['example.com/hold', 'orphan']);
    assert.deepEqual(finalizersOf(await s.client.call('DELETE', `${cmPath}/o4?orphanDependents=0`)), ['example.com/hold']);
    // A repeated delete may change the policy: false takes the orphan finalizer away again.
    assert.deepEqual(finalizersOf(await s.client.call('DELETE', `${cmPath}/o1`, { body: { orphanDependents: false } })), ['example.com/hold']);
    const collection = await s.client.call('DELETE', `${cmPath}?fieldSelector=metadata.name%3Do5&orphanDependents=1`);
    assert.equal(collection.status, 200, collection.text);
    assert.deepEqual((collection.json as { items: { metadata: { finalizers?: string[] } }[] }).items.map((o) => o.metadata.finalizers), [['example.com/hold', 'orphan']]);
  });

  test('orphanDependents with propagationPolicy is a 422 on propagationPolicy, as ValidateDeleteOptions answers', async () => {
    await create('both');
    const message = 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set';
    for (const res of [
      await s.client.call('DELETE', `${cmPath}/both?orphanDependents=false&propagationPolicy=Orphan`),
      await s.client.call('DELETE', `${cmPath}/both`, { body: { orphanDependents: true, propagationPolicy: 'Orphan' } }),
      await s.client.call('DELETE', `${cmPath}?orphanDependents=true&propagationPolicy=Orphan`),
    ]) {
      const st = expectStatus(res, 422, 'Invalid', message);
      assert.deepEqual(st.details, { group: 'meta.k8s.io', kind: 'DeleteOptions', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set', field: 'propagationPolicy' }] });
    }
    assert.equal((await s.client.call('GET', `${cmPath}/both`)).status, 200, 'nothing deleted');
  });

  test('an unknown propagationPolicy, even empty, is a 422 naming the field', async () => {
    await create('policy');
    const st = expectStatus(await s.client.call('DELETE', `${cmPath}/policy?propagationPolicy=Bogus`), 422, 'Invalid', 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"');
    assert.deepEqual(st.details?.causes, [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"', field: 'propagationPolicy' }]);
    expectStatus(await s.client.call('DELETE', `${cmPath}/policy?propagationPolicy=`), 422, 'Invalid', /Unsupported value: "": supported/);
    expectStatus(await s.client.call('DELETE', `${cmPath}/policy`, { body: { propagationPolicy: '' } }), 422, 'Invalid', /Unsupported value: "": supported/);
    assert.equal((await s.client.call('GET', `${cmPath}/policy`)).status, 200);
  });

  test('a delete with a body takes none of its options from the query', async () => {
    await create('bodied');
    const res = await s.client.call('DELETE', `${cmPath}/bodied?propagationPolicy=Bogus&dryRun=All`, { body: { kind: 'DeleteOptions', apiVersion: 'v1' } });
    assert.equal(res.status, 200, res.text);
    assert.equal((await s.client.call('GET', `${cmPath}/bodied`)).status, 404, 'not a dry run: the query dryRun was not read');
  });
});

describe('dryRun, fieldValidation and fieldManager are validated as 422 options', () => {
  test('dryRun with an empty or unknown value is a 422 on every write verb', async () => {
    await create('dry');
    const unsupported = (values: string): string => `dryRun: Unsupported value: []string{${values}}: supported values: "All"`;
    expectStatus(await s.client.call('POST', `${cmPath}?dryRun=`, { body: cm('dry-new') }), 422, 'Invalid', `CreateOptions.meta.k8s.io "" is invalid: ${unsupported('""')}`);
    expectStatus(await s.client.call('POST', `${cmPath}?dryRun`, { body: cm('dry-new') }), 422, 'Invalid', `CreateOptions.meta.k8s.io "" is invalid: ${unsupported('""')}`);
    expectStatus(await s.client.call('PUT', `${cmPath}/dry?dryRun=All&dryRun=Some`, { body: cm('dry') }), 422, 'Invalid', `UpdateOptions.meta.k8s.io "" is invalid: ${unsupported('"All", "Some"')}`);
    expectStatus(await s.client.call('PATCH', `${cmPath}/dry?dryRun=all`, { body: { data: { k: 'w' } }, contentType: 'application/merge-patch+json' }), 422, 'Invalid', `PatchOptions.meta.k8s.io "" is invalid: ${unsupported('"all"')}`);
    const st = expectStatus(await s.client.call('DELETE', `${cmPath}/dry?dryRun=`), 422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: ${unsupported('""')}`);
    assert.deepEqual(st.details?.causes, [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{""}: supported values: "All"', field: 'dryRun' }]);
    expectStatus(await s.client.call('DELETE', `${cmPath}/dry`, { body: { dryRun: ['Everything'] } }), 422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: ${unsupported('"Everything"')}`);
    assert.equal((await s.client.call('GET', `${cmPath}?dryRun=`)).status, 200, 'a read has no dryRun');
    assert.equal((await s.client.call('GET', `${cmPath}/dry-new`)).status, 404);
    assert.deepEqual(((await s.client.call('GET', `${cmPath}/dry`)).json as { data: unknown }).data, { k: 'v' });
  });

  test('fieldValidation, fieldManager and force problems are all named in one 422', async () => {
    await create('opts');
    expectStatus(await s.client.call('POST', `${cmPath}?fieldValidation=strict`, { body: cm('opts-new') }), 422, 'Invalid', 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"');
    expectStatus(await s.client.call('PUT', `${cmPath}/opts?fieldManager=${'m'.repeat(129)}`, { body: cm('opts') }), 422, 'Invalid', 'UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes');
    expectStatus(await s.client.call('POST', `${cmPath}?fieldManager=${'\u00e9'.repeat(65)}`, { body: cm('opts-new') }), 422, 'Invalid', /fieldManager: Too long: must have at most 128 bytes$/);
    expectStatus(await s.client.call('POST', `${cmPath}?fieldManager=a%07b`, { body: cm('opts-new') }), 422, 'Invalid', 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\ab": invalid character U+0007 (at position 1)');
    const st = expectStatus(await s.client.call('PATCH', `${cmPath}/opts?force=false&dryRun=x`, { body: { data: { k: 'w' } }, contentType: 'application/merge-patch+json' }), 422, 'Invalid');
    assert.deepEqual(st.details?.causes?.map((c) => c.field), ['force', 'dryRun']);
    assert.equal(st.message, 'PatchOptions.meta.k8s.io "" is invalid: [force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: []string{"x"}: supported values: "All"]');
    expectStatus(await s.client.call('PATCH', `${cmPath}/opts`, { body: cm('opts'), contentType: 'application/apply-patch+yaml' }), 422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    assert.equal((await s.client.call('GET', `${cmPath}/opts-new`)).status, 404);
  });

  test('force is a bool parameter: force=yes and a bare force take a conflicting field', async () => {
    const applyType = 'application/apply-patch+yaml';
    const apply = (manager: string, value: string, extra = ''): Promise<ApiResponse> => s.client.call('PATCH', `${cmPath}/forced?fieldManager=${manager}${extra}`, { body: { ...cm('forced'), data: { k: value } }, contentType: applyType });
    assert.equal((await apply('alice', '1')).status, 201);
    assert.equal((await apply('bob', '2')).status, 409);
    const forced = await apply('bob', '2', '&force=yes');
    assert.equal(forced.status, 200, forced.text);
    assert.equal((await apply('alice', '3', '&force')).status, 200);
  });
});

describe('timeout: a Go duration, the deadline of requests that are not watches', () => {
  test('a timeout that is no Go duration is a 400, before authentication; a watch does not read it', async () => {
    const cases: [string, string][] = [['abc', 'time: invalid duration "abc"'], ['30', 'time: missing unit in duration "30"'], ['1d', 'time: unknown unit "d" in duration "1d"']];
    for (const [value, why] of cases) {
      expectStatus(await s.client.call('GET', `${cmPath}?timeout=${value}`), 400, 'BadRequest', `invalid timeout specified in the request URL - ${why}`);
    }
    expectStatus(await s.client.call('GET', `${cmPath}?timeout=abc`, { headers: { authorization: 'Bearer wrong' } }), 400, 'BadRequest');
    for (const value of ['32s', '1m', '1h2m3.5s', '500ms', '0s']) assert.equal((await s.client.call('GET', `${cmPath}?timeout=${value}`)).status, 200, value);
    assert.equal((await s.client.call('GET', `${cmPath}?watch=1&timeoutSeconds=1&timeout=abc`)).status, 200);
  });

  test('a request still under way at its timeout is answered 504 Timeout, and its connection closed', { timeout: 15_000 }, async () => {
    const socket = tlsConnect({ host: '127.0.0.1', port: Number(new URL(s.baseUrl).port), ca: s.tls.cert, ALPNProtocols: ['http/1.1'], servername: 'localhost' });
    try {
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      const started = Date.now();
      // The body never arrives whole: without the 300 ms timeout it would wait for the 60 s body timeout.
      socket.write(`POST ${cmPath}?timeout=300ms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${testToken}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"apiVersion":`);
      let answer = '';
      await new Promise<void>((resolve, reject) => {
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
          if (answer.includes('"code":504')) resolve();
        });
        socket.once('error', reject);
      });
      assert.ok(Date.now() - started < 5000);
      assert.match(answer, /^HTTP\/1\.1 504 /);
      assert.match(answer, /\r\nConnection: close\r\n/i);
      assert.match(answer, /"reason":"Timeout","details":\{\},"code":504/);
      assert.match(answer, /"message":"Timeout: request did not complete within the allotted timeout"/);
    } finally {
      socket.destroy();
    }
    assert.equal((await s.client.call('GET', cmPath)).status, 200, 'the server goes on');
  });
});

describe('JSON patch paths and /version', () => {
  test('a JSON patch path (or from) that is not a JSON pointer is a 422 and changes nothing', async () => {
    await create('jp');
    const patch = (ops: unknown): Promise<ApiResponse> => s.client.call('PATCH', `${cmPath}/jp`, { body: ops, contentType: 'application/json-patch+json' });
    expectStatus(await patch([{ op: 'add', path: 'data/x', value: 'y' }]), 422, 'Invalid', /add operation does not apply: doc is missing path: "data\/x"$/);
    expectStatus(await patch([{ op: 'remove', path: 'data' }]), 422, 'Invalid', /doc is missing path: "data"$/);
    expectStatus(await patch([{ op: 'copy', from: 'data', path: '/metadata/labels' }]), 422, 'Invalid', /copy operation does not apply: doc is missing from path: "data"$/);
    expectStatus(await patch([{ op: 'move', from: 7, path: '/data/z' }]), 422, 'Invalid', /move operation failed to decode from$/);
    assert.deepEqual(((await s.client.call('GET', `${cmPath}/jp`)).json as { data: unknown }).data, { k: 'v' });
  });

  test('/version and /version/ answer without authentication', async () => {
    for (const path of ['/version', '/version/']) {
      const headerSets: Record<string, string>[] = [{ authorization: '' }, {}];
      for (const headers of headerSets) {
        const res = await s.client.call('GET', path, { headers });
        assert.equal(res.status, 200, `${path} ${JSON.stringify(headers)}: ${res.text}`);
        assert.match((res.json as { gitVersion: string }).gitVersion, /^v1\.28\./);
      }
    }
    // No credential is the anonymous user, whom RBAC's system:public-info-viewer allows /version alone.
    assert.equal((await s.client.call('GET', '/version/x', { headers: { authorization: '' } })).status, 403);
    assert.equal((await s.client.call('GET', '/versions', { headers: { authorization: '' } })).status, 403);
    assert.equal((await s.client.call('GET', '/version', { headers: { authorization: 'Bearer wrong' } })).status, 401, 'an invalid credential is a 401 even where anonymous may read');
  });
});
