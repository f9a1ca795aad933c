import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';
import { planGet, planList, planWatch, readOptionsFor } from '../../../internal/registry/generic/resource-version.ts';
import { revision, StorageError, type Storage } from '../../../internal/storage/storage.ts';

function rejects400(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof StatusError && err.code === 400 && message.test(err.message));
}

/** Invalid ListOptions: a 422 as kube-apiserver's ValidateListOptions answers, `ListOptions.meta.k8s.io "" is invalid: <field>: ...`. */
function rejects422(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof StatusError && err.code === 422 && err.reason === 'Invalid' && /^ListOptions\.meta\.k8s\.io "" is invalid: resourceVersionMatch: /.test(err.message) && message.test(err.message));
}

test('get: unset is Most Recent, "0" is Any, a value is Not older than', () => {
  assert.deepEqual(planGet(undefined), { kind: 'most-recent' });
  assert.deepEqual(planGet(''), { kind: 'most-recent' });
  assert.deepEqual(planGet('0'), { kind: 'any' });
  assert.deepEqual(planGet('42'), { kind: 'not-older-than', revision: 42 });
  rejects400(() => planGet('abc'), /invalid resource version/);
  rejects400(() => planGet('-1'), /invalid resource version/);
});

test('list without match or limit: Most Recent, Any, Not older than', () => {
  assert.deepEqual(planList({}), { kind: 'most-recent' });
  assert.deepEqual(planList({ resourceVersion: '0' }), { kind: 'any' });
  assert.deepEqual(planList({ resourceVersion: '7' }), { kind: 'not-older-than', revision: 7 });
});

test('list with a limit and no continue: Most Recent, Any, Exact', () => {
  assert.deepEqual(planList({ limit: 2 }), { kind: 'most-recent' });
  assert.deepEqual(planList({ limit: 2, resourceVersion: '0' }), { kind: 'any' });
  assert.deepEqual(planList({ limit: 2, resourceVersion: '7' }), { kind: 'exact', revision: 7 });
  assert.deepEqual(planList({ limit: 0, resourceVersion: '7' }), { kind: 'not-older-than', revision: 7 }, 'limit=0 is no limit');
});

test('list with continue: continue-token Exact for unset and "0", 400 for another version, 422 with a match', () => {
  assert.deepEqual(planList({ limit: 2, continue: 'tok' }), { kind: 'continue', token: 'tok' });
  assert.deepEqual(planList({ limit: 2, continue: 'tok', resourceVersion: '0' }), { kind: 'continue', token: 'tok' });
  rejects400(() => planList({ limit: 2, continue: 'tok', resourceVersion: '7' }), /specifying resource version is not allowed when using continue/);
  rejects422(() => planList({ continue: 'tok', resourceVersion: '7', resourceVersionMatch: 'Exact' }), /forbidden when continue is provided/);
  rejects422(() => planList({ continue: 'tok', resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }), /forbidden when continue is provided/);
});

test('list with match Exact: invalid for unset and "0", Exact otherwise (with or without limit)', () => {
  for (const limit of [undefined, 3]) {
    const l = limit === undefined ? {} : { limit };
    rejects422(() => planList({ ...l, resourceVersionMatch: 'Exact' }), /forbidden unless resourceVersion is provided/);
    rejects422(() => planList({ ...l, resourceVersion: '0', resourceVersionMatch: 'Exact' }), /"exact" is forbidden for resourceVersion "0"/);
    assert.deepEqual(planList({ ...l, resourceVersion: '9', resourceVersionMatch: 'Exact' }), { kind: 'exact', revision: 9 });
  }
});

test('list with match NotOlderThan: invalid for unset, Any for "0", Not older than otherwise (with or without limit)', () => {
  for (const limit of [undefined, 3]) {
    const l = limit === undefined ? {} : { limit };
    rejects422(() => planList({ ...l, resourceVersionMatch: 'NotOlderThan' }), /forbidden unless resourceVersion is provided/);
    assert.deepEqual(planList({ ...l, resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }), { kind: 'any' });
    assert.deepEqual(planList({ ...l, resourceVersion: '9', resourceVersionMatch: 'NotOlderThan' }), { kind: 'not-older-than', revision: 9 });
  }
});

test('list: an unknown match is a 422, a non-numeric version a 400', () => {
  rejects422(() => planList({ resourceVersion: '1', resourceVersionMatch: 'Newest' }), /Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""$/);
  rejects400(() => planList({ resourceVersion: 'x1' }), /invalid resource version/);
  rejects400(() => planList({ resourceVersion: 'x1', resourceVersionMatch: 'Exact' }), /invalid resource version/);
});

test('watch without sendInitialEvents: initial state for unset (Most Recent) and "0" (Any); Exact start otherwise', () => {
  assert.deepEqual(planWatch({}), { initialEvents: true, read: { kind: 'most-recent' }, initialEventsEndBookmark: false });
  assert.deepEqual(planWatch({ resourceVersion: '0' }), { initialEvents: true, read: { kind: 'any' }, initialEventsEndBookmark: false });
  assert.deepEqual(planWatch({ resourceVersion: '5', allowWatchBookmarks: true }), { initialEvents: false, read: { kind: 'exact', revision: 5 }, initialEventsEndBookmark: false });
  rejects422(() => planWatch({ resourceVersion: '5', resourceVersionMatch: 'NotOlderThan' }), /forbidden for watch unless sendInitialEvents is provided/);
  rejects400(() => planWatch({ resourceVersion: 'five' }), /invalid resource version/);
});

test('watch with sendInitialEvents: needs match NotOlderThan; the end BOOKMARK only when bookmarks are allowed', () => {
  rejects422(() => planWatch({ sendInitialEvents: true }), /requires setting resourceVersionMatch to NotOlderThan/);
  rejects422(() => planWatch({ sendInitialEvents: true, resourceVersion: '3', resourceVersionMatch: 'Exact' }), /requires setting resourceVersionMatch to NotOlderThan/);
  const not = { resourceVersionMatch: 'NotOlderThan' };
  assert.deepEqual(planWatch({ ...not, sendInitialEvents: true, allowWatchBookmarks: true }), { initialEvents: true, read: { kind: 'most-recent' }, initialEventsEndBookmark: true });
  assert.deepEqual(planWatch({ ...not, sendInitialEvents: true }), { initialEvents: true, read: { kind: 'most-recent' }, initialEventsEndBookmark: false });
  assert.deepEqual(planWatch({ ...not, sendInitialEvents: true, resourceVersion: '0' }), { initialEvents: true, read: { kind: 'any' }, initialEventsEndBookmark: false });
  assert.deepEqual(planWatch({ ...not, sendInitialEvents: true, resourceVersion: '8', allowWatchBookmarks: true }), { initialEvents: true, read: { kind: 'not-older-than', revision: 8 }, initialEventsEndBookmark: true });
  assert.deepEqual(planWatch({ ...not, sendInitialEvents: false }), { initialEvents: false, read: { kind: 'most-recent' }, initialEventsEndBookmark: false });
  assert.deepEqual(planWatch({ ...not, sendInitialEvents: false, resourceVersion: '8' }), { initialEvents: false, read: { kind: 'exact', revision: 8 }, initialEventsEndBookmark: false });
});

/** A storage stub recording waits; only what readOptionsFor calls. */
function waitStub(current: number): { storage: Storage; waited: number[] } {
  const waited: number[] = [];
  const storage = {
    waitForRevision: async (rev: number) => {
      waited.push(rev);
      if (rev > current) throw new StorageError('RevisionTooLarge', `Too large resource version: ${rev}, current: ${current}`);
    },
  } as unknown as Storage;
  return { storage, waited };
}

test('read options: Most Recent is linearizable, Any local, Not older than and Exact wait for the revision first', async () => {
  const { storage, waited } = waitStub(10);
  assert.deepEqual(await readOptionsFor(storage, { kind: 'most-recent' }), { consistency: 'linearizable' });
  assert.deepEqual(await readOptionsFor(storage, { kind: 'any' }), { consistency: 'local' });
  assert.deepEqual(await readOptionsFor(storage, { kind: 'not-older-than', revision: revision(4) }), { consistency: 'local' });
  assert.deepEqual(await readOptionsFor(storage, { kind: 'exact', revision: revision(6) }), { consistency: 'local', revision: 6 });
  assert.deepEqual(waited, [4, 6]);
  await assert.rejects(readOptionsFor(storage, { kind: 'exact', revision: revision(11) }), (err: unknown) => err instanceof StorageError && err.code === 'RevisionTooLarge');
});
