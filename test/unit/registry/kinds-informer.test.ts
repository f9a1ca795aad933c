// KindsInformer: lists, then watches; a list that keeps failing is retried ever less often (kube's
// reflector backoff), and a list and watch that succeeded starts the pauses over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenericStore } from '../../../internal/registry/generic/store.ts';
import { KindsInformer, relistDelayMsMax } from '../../../internal/registry/generic/kinds-informer.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { FakeStorage } from '../apiserver/fake-storage.ts';

function namespaceStore(storage: FakeStorage): GenericStore {
  const served = new ResourceRegistry('k8s.io').find('', 'v1', 'namespaces');
  assert.ok(served);
  return new GenericStore(storage, served);
}

test('failing lists are retried after pauses that double up to the cap, and start over once a list and watch succeeded', async () => {
  const storage = new FakeStorage();
  const store = namespaceStore(storage);
  const realList = store.list.bind(store);
  let failing = 8;
  store.list = async (namespace, query) => {
    if (failing > 0) {
      failing -= 1;
      throw new Error('leader unreachable');
    }
    return realList(namespace, query);
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
          if (replaced === 1) setImmediate(() => storage.endWatches());
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
