// The plugins' view of the cluster's objects, over the registry's stores: reads from this
// replica's state unless asked for a consistent read (as kube-apiserver's plugins read their
// informers' caches and fall back to a live lookup), and writes with the server's own authority.
import { hasStatus } from '../registry/errors/status-error.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import { storesByResource, type ResourceRegistry, type ServedResource } from '../registry/resource-registry.ts';
import type { KObject } from '../registry/schema/declaration.ts';
import type { NamespaceCache } from './namespace-cache.ts';
import type { GroupResourceName, ObjectReader, ObjectWriter, ReadOptions } from './plugin.ts';

/** The field manager of writes admission makes itself. */
const fieldManager = 'kube-apiserver';

export class RegistryObjects implements ObjectReader, ObjectWriter {
  private byResource: ReadonlyMap<string, GenericStore>;
  private generation: number;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly stores: ReadonlyMap<ServedResource, GenericStore>,
    /** The namespaces in memory, read before this replica's state (a miss reads the state). */
    private readonly namespaces?: NamespaceCache,
  ) {
    this.byResource = storesByResource(registry, stores);
    this.generation = registry.generation;
  }

  async get(gr: GroupResourceName, namespace: string | undefined, name: string, options: ReadOptions = {}): Promise<KObject | undefined> {
    if (options.consistent !== true && gr.group === '' && gr.resource === 'namespaces') {
      const cached = this.namespaces?.get(name);
      if (cached !== undefined) return cached;
    }
    const store = this.storeOf(gr);
    if (store === undefined) return undefined;
    try {
      return await store.get(store.decl.namespaced ? namespace : undefined, name, options.consistent === true ? undefined : '0');
    } catch (err) {
      if (hasStatus(err, 404)) return undefined;
      throw err;
    }
  }

  async list(gr: GroupResourceName, namespace: string | undefined, options: ReadOptions = {}): Promise<readonly KObject[]> {
    const store = this.storeOf(gr);
    if (store === undefined) return [];
    const list = await store.list(store.decl.namespaced ? namespace : undefined, {
      ...(options.consistent === true ? {} : { resourceVersion: '0' }),
      ...(options.labelSelector === undefined ? {} : { labelSelector: options.labelSelector }),
      ...(options.fieldSelector === undefined ? {} : { fieldSelector: options.fieldSelector }),
    });
    return list.items;
  }

  async create(gr: GroupResourceName, namespace: string | undefined, object: KObject): Promise<KObject> {
    return (await this.required(gr).create(namespace, object, { fieldManager })).object;
  }

  async update(gr: GroupResourceName, namespace: string | undefined, object: KObject, options: { readonly subresource?: 'status' } = {}): Promise<KObject> {
    const opts = { fieldManager, ...(options.subresource === undefined ? {} : { subresource: options.subresource }) };
    return (await this.required(gr).update(namespace, object.metadata.name ?? '', object, opts)).object;
  }

  private storeOf(gr: GroupResourceName): GenericStore | undefined {
    // Custom kinds come and go with their definitions.
    if (this.generation !== this.registry.generation) {
      this.byResource = storesByResource(this.registry, this.stores);
      this.generation = this.registry.generation;
    }
    return this.byResource.get(`${gr.group}/${gr.resource}`);
  }

  private required(gr: GroupResourceName): GenericStore {
    const store = this.storeOf(gr);
    if (store === undefined) throw new Error(`assert: admission writes ${gr.resource}.${gr.group}, which is not served`);
    return store;
  }
}
