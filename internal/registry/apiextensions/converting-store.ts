// The store of a custom kind whose CustomResourceDefinition converts by webhook: every object is
// stored at the storage version and served at the request's version, each crossing converted by
// the definition's conversion webhook, as kube-apiextensions-apiserver's codec does. The strategy,
// admission and validation see the object at the served version; reads convert a page of a list
// in one ConversionReview; a failed conversion is kube's 500.
import { decodeKeyValue, encodeObject } from '../generic/codec.ts';
import type { ListQuery } from '../generic/list.ts';
import type { ListObject } from '../generic/store.ts';
import type { KObject } from '../schema/declaration.ts';
import type { ServedResource } from '../served-resource.ts';
import type { KeyValue, Storage } from '../../storage/storage.ts';
import type { Converter } from './conversion/index.ts';
import { CustomResourceStore } from './custom-resource-store.ts';

/** A custom kind's store converting through its definition's webhook. */
export class ConvertingStore extends CustomResourceStore {
  constructor(
    storage: Storage,
    served: ServedResource,
    terminating: boolean,
    private readonly converter: Converter,
    /** `<group>/<storage version>`: what every write stores. */
    private readonly storageApiVersion: string,
  ) {
    super(storage, served, terminating);
  }

  /** A stored object (at the version it was written at) as served: converted, then defaulted. */
  override async load(kv: KeyValue, revision: number = kv.modRevision): Promise<KObject> {
    const [converted] = await this.converter.convert([decodeKeyValue(kv, revision)], this.served.apiVersion);
    return this.asServed(converted as KObject);
  }

  /** A served object as stored: converted to the storage version. */
  override async dump(obj: KObject): Promise<Uint8Array> {
    const [stored] = await this.converter.convert([obj], this.storageApiVersion);
    return encodeObject(stored as KObject);
  }

  override async list(namespace: string | undefined, query: ListQuery): Promise<ListObject> {
    // Selectors read metadata, which conversion keeps: the page is chosen as stored, then converted at once.
    const list = await this.listLoaded(namespace, query, (kv) => decodeKeyValue(kv));
    const converted = await this.guard('', () => this.converter.convert(list.items, this.served.apiVersion, { list: { apiVersion: this.served.apiVersion, kind: list.kind } }));
    return { ...list, items: converted.map((o) => this.asServed(o as KObject)) };
  }

  private asServed(obj: KObject): KObject {
    const form = this.decl.storedAs;
    return this.withType(form === undefined ? obj : form.fromStored(obj));
  }
}
