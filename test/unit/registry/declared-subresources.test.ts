import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceRegistry, storeFor } from '../../../internal/registry/resource-registry.ts';
import { FakeStorage } from '../apiserver/fake-storage.ts';

// The declaration says which sub-resources a kind has; its store must serve each one that is not a view.

test('every declared sub-resource that is not a view has a store serving its verbs', () => {
  const storage = new FakeStorage();
  const registry = new ResourceRegistry('k8s.io');
  let checked = 0;
  for (const served of registry.resources) {
    const store = storeFor(storage, served);
    for (const [name, declared] of Object.entries(served.decl.subresources?.more ?? {})) {
      checked++;
      const what = `${served.decl.plural}/${name}`;
      if (declared.view !== undefined) {
        assert.deepEqual([...declared.verbs].sort(), ['get', 'patch', 'update'], `${what}: a view is read and written as the object`);
        continue;
      }
      const behaviour = store.subresources[name];
      assert.ok(behaviour, `${what} has a store`);
      if (declared.body !== undefined) assert.ok(behaviour.create, `${what} takes a body: it creates`);
      else assert.ok(behaviour.connect, `${what} takes no body: it connects`);
    }
  }
  assert.ok(checked >= 10, `pods, services and nodes declare their sub-resources (${checked} checked)`);
});
