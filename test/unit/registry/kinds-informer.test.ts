// KindsInformer: lists, then watches; a list that keeps failing is retried ever less often (kube's
// reflector backoff), and a list and watch that succeeded starts the pauses over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { KindsInformer, relistDelayMsMax } from '../../../internal/registry/generic/kinds-informer.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { FakeStorage } from '../apiserver/fake-storage.ts';

function namespaceStore(): GenericStore {
  const served = new ResourceRegistry('k8s.io').find('', 'v1', 'namespaces');
  assert.ok(served);
  return new GenericStore(new FakeStorage(), served);
}

test('failing lists are retried after pauses that double up to the cap, and start over once a list and watch succeeded', async () => {
  const store = namespaceStore();
  const realList = store.list.bind(store);
  let failing = 8;
  store.list = async (namespace, query) => {
    if (failing > 0) {
      failing -= 1;
      throw new Error('leader unreachable');
    }
    return realList(namespace, query);
  };
  // The storage's watchers, to end the informer's watch from here.
  const storage = store.storage;
  const watchers: { stop(): void }[] = [];
  const realWatch = storage.watch.bind(storage);
  storage.watch = (options) => {
    const watcher = realWatch(options);
    watchers.push(watcher);
    return watcher;
  };
  const pauses: number[] = [];
  let replaced = 0;
  let informer: KindsInformer<'namespaces'> | undefined;
  const watchEnded = new Promise<void>((resolve) => {
    informer = new KindsInformer({
      name: 'test', stores: [['namespaces', store]], relistDelayMs: 1000, log: () => undefined,
      handler: {
        replaced: () => {
          replaced += 1;
          // The first success: end its watch at once, so the loop pauses again.
          if (replaced === 1) setImmediate(() => watchers.forEach((w) => w.stop()));
          if (replaced === 2) resolve();
        },
        changed: () => undefined,
      },
      wait: async (ms) => {
        pauses.push(ms);
      },
    });
  });
  assert.ok(informer);
  informer.start();
  await watchEnded;
  await informer.stop();
  assert.deepEqual(pauses.slice(0, 9), [1000, 2000, 4000, 8000, 16000, relistDelayMsMax, relistDelayMsMax, relistDelayMsMax, 1000]);
});
