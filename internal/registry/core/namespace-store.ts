// The namespace storage, as kube-apiserver overrides it (pkg/registry/core/namespace/storage):
// a delete only marks the namespace Terminating; the namespace controller empties it and removes
// its `kubernetes` finalizer, which lets it go.
import type { DeleteOptions } from '../generic/delete.ts';
import { GenericStore } from '../generic/store.ts';
import type { KObject } from '../schema/declaration.ts';
import { deleteNamespace } from './namespace-deletion.ts';

export class NamespaceStore extends GenericStore {
  override async delete(_namespace: string | undefined, name: string, opts: DeleteOptions): Promise<KObject> {
    return this.guard(name, () => deleteNamespace(this, name, opts));
  }
}
