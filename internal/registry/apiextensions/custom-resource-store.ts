// The store of one served version of a custom kind: the generic store, which refuses new objects
// while the kind's CustomResourceDefinition is being deleted (its objects are being removed), and
// whose watches end when the definition changes or goes, as kube-apiextensions-apiserver's
// handler does.
import { StatusError } from '../errors/status-error.ts';
import { GenericStore, type WriteOptions, type WriteResult } from '../generic/store.ts';
import type { KObject } from '../schema/declaration.ts';
import type { ServedResource } from '../served-resource.ts';
import type { Storage } from '../../storage/storage.ts';

/** A custom kind's store; `terminating` when its definition has a deletionTimestamp. */
export class CustomResourceStore extends GenericStore {
  constructor(
    storage: Storage,
    served: ServedResource,
    private readonly terminating: boolean,
  ) {
    super(storage, served);
  }

  private readonly watches = new Set<() => void>();
  private retired = false;

  override trackWatch(stop: () => void): () => void {
    if (this.retired) {
      stop();
      return () => undefined;
    }
    this.watches.add(stop);
    return () => this.watches.delete(stop);
  }

  /** Ends every watch of this store: its definition changed or went (clients watch again and get the new kind, or 404). */
  retire(): void {
    this.retired = true;
    for (const stop of [...this.watches]) stop();
    this.watches.clear();
  }

  override async create(namespace: string | undefined, input: KObject, opts: WriteOptions): Promise<WriteResult> {
    if (this.terminating) throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', { name: '', group: this.served.group, kind: this.decl.plural });
    return super.create(namespace, input, opts);
  }
}
