// The collector's building blocks: the object graph and the work queue.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ObjectGraph, nodeOf } from '../../../internal/controllers/garbage-collector/object-graph.ts';
import { ownerReferencesOf } from '../../../internal/controllers/garbage-collector/owner-reference.ts';
import { WorkQueue } from '../../../internal/controllers/garbage-collector/work-queue.ts';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import type { KObject } from '../../../internal/registry/schema/declaration.ts';
import type { Storage } from '../../../internal/storage/storage.ts';

const registry = new ResourceRegistry('k8s.io');
const served = registry.find('', 'v1', 'configmaps');
assert.ok(served);
const store = new GenericStore({} as Storage, served);

function cm(uid: string, owners: string[] = []): KObject {
  return { metadata: { name: uid, namespace: 'default', uid, ownerReferences: owners.map((o) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o, uid: o })) } };
}

/** The distinct uids, sorted: the graph may name one twice (the queue deduplicates). */
const uids = (xs: string[]) => [...new Set(xs)].sort();

function node(uid: string, owners: string[] = []) {
  const n = nodeOf(store, cm(uid, owners));
  assert.ok(n);
  return n;
}

test('owner references without a uid, kind, name or apiVersion are ignored', () => {
  const obj: KObject = { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: 'u', blockOwnerDeletion: true }, { kind: 'ConfigMap', name: 'b', uid: 'v' }, 'junk', { apiVersion: 'v1', kind: 'X', name: 'c', uid: '' }] } };
  assert.deepEqual(ownerReferencesOf(obj), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: 'u', blockOwnerDeletion: true }]);
});

test('the graph indexes dependents by owner uid, present or not, and reports what a change affects', () => {
  const g = new ObjectGraph();
  assert.deepEqual(uids(g.upsert(node('dep', ['owner', 'other']))), ['dep', 'other', 'owner']);
  assert.deepEqual(g.dependentsOf('owner').map((n) => n.uid), ['dep'], 'dependents of an owner not in the graph are known');
  assert.deepEqual(g.upsert(node('owner')), [], 'an object owning nothing and owned by nothing needs no look');
  assert.deepEqual(uids(g.upsert(node('dep', ['other']))), ['dep', 'other', 'owner'], 'the owner it stopped naming is affected');
  assert.deepEqual(g.dependentsOf('owner'), []);
  assert.deepEqual(g.remove('other'), [], 'an object the graph never held changes nothing');
  g.upsert(node('other'));
  assert.deepEqual(g.remove('other'), ['dep'], 'removing an owner affects its dependents');
  assert.deepEqual(g.remove('dep'), ['other'], 'removing a dependent affects its owners');
  assert.deepEqual(g.remove('dep'), []);
});

test('the work queue hands an item to one worker at a time and again when re-added meanwhile', async () => {
  const q = new WorkQueue();
  q.add('a');
  q.add('a');
  q.add('b');
  assert.equal(await q.next(), 'a');
  q.add('a');
  assert.equal(await q.next(), 'b', 'a is being processed: not handed out twice');
  q.done('a');
  assert.equal(await q.next(), 'a', 'added while processing: handed out again after done');
  const waiting = q.next();
  q.close();
  assert.equal(await waiting, undefined);
});
