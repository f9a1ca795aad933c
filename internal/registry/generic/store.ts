import type { KeyValue, Storage } from '../../storage/storage.ts';
import { StorageError } from '../../storage/storage.ts';
import type { KObject, ResourceDeclaration, SubresourceView } from '../schema/declaration.ts';
import type { ServedResource } from '../served-resource.ts';
import { badRequest, conflict, CONFLICT_MODIFIED, internalError, notFound, type GroupResource } from '../errors/status-error.ts';
import { checkSchema, objectSchema } from '../schema/schema-check.ts';
import { cloneObject, decodeKeyValue, encodeObject } from './codec.ts';
import { collectionPrefix, objectKey } from './keys.ts';
import { listObjects, type ListQuery } from './list.ts';
import { patchRetriesMax } from './limits.ts';
import { prepareCreateMetadata, prepareUpdateMetadata, runCreateStrategy, runUpdateStrategy, type WriteContext } from './object-lifecycle.ts';
import { planGet, readOptionsFor, revisionOf } from './resource-version.ts';
import { sameContent, stableStringify } from './stable-json.ts';
import { toStatusError } from './storage-errors.ts';
import { deleteObject, type DeleteOptions } from './delete.ts';
import { finishing, type WriteHooks, type WriterInfo } from './write-hooks.ts';
import type { SubresourceStore } from './subresource-store.ts';
import type { UserInfo } from '../../authn/user-info.ts';
import type { WriteAdmission } from './write-admission.ts';

/** Options of a create, update or patch. */
export interface WriteOptions {
  readonly dryRun?: boolean;
  /** Who writes (managedFields). */
  readonly fieldManager: string;
  /** `status` to write only the status; the name of a view sub-resource (Subresources.more) to write what it writes. */
  readonly subresource?: string;
  /** managedFields computed by server-side apply: stored as given instead of recording an Update. */
  readonly appliedManagedFields?: () => readonly unknown[];
  /** The request's user (after impersonation); absent for the server's own writes. Hooks that authorize read it. */
  readonly user?: UserInfo;
  /**
   * The request's `create` authorization, run before an update creates the object (create-on-update);
   * throws the 403. Absent for the server's own writes.
   */
  readonly authorizeCreate?: () => Promise<void>;
  /** The request's admission chain; absent for the server's own writes. */
  readonly admission?: WriteAdmission;
  /**
   * True when the caller hands `input` over (a body decoded for this request alone, not read after
   * the write): the store then changes it instead of a deep copy. Absent: `input` is left as it is.
   */
  readonly inputOwned?: boolean;
}

/** The outcome of a write: the object as stored (or as it would be, on dry run). */
export interface WriteResult {
  readonly object: KObject;
  readonly warnings: readonly string[];
  /** True when the write created the object (POST, or PUT with create-on-update). */
  readonly created: boolean;
}

/** A list as the API returns it. */
export interface ListObject {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: KObject[];
}

function writerOf(opts: WriteOptions): WriterInfo {
  return opts.user === undefined ? {} : { user: opts.user };
}

/** Re-exported so callers of the store need one import. */
export type { DeleteOptions, ListQuery };

/**
 * The generic store of one resource, driven by its declaration's strategy. It is the one place
 * storage errors become API Status errors; every method throws only StatusError.
 */
export class GenericStore {
  readonly decl: ResourceDeclaration;
  readonly gr: GroupResource;
  /** The behaviour of the kind's own sub-resources that are not views, by name (Subresources.more). */
  readonly subresources: Readonly<Record<string, SubresourceStore>>;

  constructor(
    readonly storage: Storage,
    readonly served: ServedResource,
    /** The resource's side effects outside its own key (none for most). */
    readonly hooks: WriteHooks = {},
    /** Makes the sub-resource stores, which act on this store (called once, here). */
    subresources?: (self: GenericStore) => Readonly<Record<string, SubresourceStore>>,
  ) {
    this.decl = served.decl;
    this.gr = { group: served.group, resource: served.decl.plural };
    this.subresources = subresources?.(this) ?? {};
  }

  /** The object `name`, read per the resourceVersion rules of a get. */
  async get(namespace: string | undefined, name: string, resourceVersion?: string): Promise<KObject> {
    return this.guard(name, async () => {
      const options = await readOptionsFor(this.storage, planGet(resourceVersion));
      const kv = await this.storage.get(objectKey(this.decl, namespace, name), options);
      if (!kv) throw notFound(this.gr, name);
      return await this.load(kv);
    });
  }

  /** A page of the collection (all namespaces when `namespace` is undefined). */
  async list(namespace: string | undefined, query: ListQuery): Promise<ListObject> {
    const list = await this.listLoaded(namespace, query, (kv) => this.load(kv));
    return { ...list, items: list.items.map((o) => this.withType(o)) };
  }

  /** A page of the collection with its items as `load` makes them (a converting store converts a page at once). */
  protected async listLoaded(namespace: string | undefined, query: ListQuery, load: (kv: KeyValue) => Promise<KObject> | KObject): Promise<ListObject> {
    return this.guard('', async () => {
      const page = await listObjects(this.storage, this.decl, collectionPrefix(this.decl, namespace), query, load);
      const metadata: ListObject['metadata'] = { resourceVersion: String(page.revision) };
      if (page.continueToken !== '') metadata.continue = page.continueToken;
      if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
      return { apiVersion: this.served.apiVersion, kind: this.decl.listKind ?? `${this.decl.kind}List`, metadata, items: page.items };
    });
  }

  /** Creates the object in `namespace`; 409 AlreadyExists, 422 Invalid. */
  async create(namespace: string | undefined, input: KObject, opts: WriteOptions): Promise<WriteResult> {
    const given = this.withType(opts.inputOwned === true ? input : cloneObject(input));
    if (this.decl.namespaced) given.metadata.namespace = namespace;
    const obj = await this.admitted('CREATE', given, undefined, opts);
    if (this.decl.namespaced && obj.metadata.namespace !== namespace) {
      // rest.BeforeCreate's EnsureObjectNamespaceMatchesRequestNamespace: admission moved it.
      if (typeof obj.metadata.namespace === 'string' && obj.metadata.namespace !== '') throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      obj.metadata.namespace = namespace;
    }
    prepareCreateMetadata(obj, this.decl, this.context(opts));
    const warnings = runCreateStrategy(this.decl, this.gr.group, obj, writerOf(opts).user);
    await opts.admission?.validate('CREATE', obj, undefined);
    const name = obj.metadata.name ?? '';
    if (opts.dryRun && !this.hooks.beginCreate) return { object: obj, warnings, created: true };
    return this.guard(name, async () => {
      const finish = await this.hooks.beginCreate?.(obj, opts.dryRun === true, writerOf(opts));
      if (opts.dryRun) {
        await finish?.('refused');
        return { object: obj, warnings, created: true };
      }
      return finishing(finish, async () => {
        const kv = await this.storage.create(objectKey(this.decl, namespace, name), await this.dump(obj));
        return { object: await this.load(kv), warnings, created: true };
      });
    });
  }

  /** Replaces the object (PUT). 409 on a stale resourceVersion; creates when the strategy allows. */
  async update(namespace: string | undefined, name: string, input: KObject, opts: WriteOptions): Promise<WriteResult> {
    return this.guard(name, async () => {
      const key = objectKey(this.decl, namespace, name);
      const current = await this.currentForUpdate(key, input.metadata.resourceVersion);
      if (!current) {
        if (this.decl.strategy.allowCreateOnUpdate && !opts.subresource) {
          await opts.authorizeCreate?.();
          return this.create(namespace, input, opts);
        }
        throw notFound(this.gr, name);
      }
      return this.updateFrom(current, opts.inputOwned === true ? input : cloneObject(input), opts);
    });
  }

  /** Patches the object: `apply` turns the current object into the desired one; retried on races. */
  async patch(namespace: string | undefined, name: string, apply: (current: KObject) => KObject, opts: WriteOptions): Promise<WriteResult> {
    return this.guard(name, async () => {
      const key = objectKey(this.decl, namespace, name);
      for (let attempt = 1; ; attempt++) {
        const current = await this.storage.get(key);
        if (!current) throw notFound(this.gr, name);
        const old = await this.load(current);
        const patched = apply(cloneObject(old));
        if (typeof patched !== 'object' || patched === null || Array.isArray(patched) || typeof patched.metadata !== 'object' || patched.metadata === null) {
          throw badRequest('the patch turned the object into something that is not an object with metadata');
        }
        const pinned = patched.metadata.resourceVersion !== old.metadata.resourceVersion;
        try {
          return await this.updateFrom(current, patched, opts);
        } catch (err) {
          const lostRace = err instanceof StorageError && err.code === 'Conflict';
          if (!lostRace || pinned || attempt >= patchRetriesMax) throw err;
        }
      }
    });
  }

  /** Deletes the object (or marks it terminating while finalizers remain). */
  async delete(namespace: string | undefined, name: string, opts: DeleteOptions): Promise<KObject> {
    return this.guard(name, () => deleteObject(this, namespace, name, opts));
  }

  /** Deletes every object matching the query's selectors; returns the list of deleted objects. */
  async deleteCollection(namespace: string | undefined, query: ListQuery, opts: DeleteOptions): Promise<ListObject> {
    const list = await this.list(namespace, { labelSelector: query.labelSelector, fieldSelector: query.fieldSelector });
    const deleted: KObject[] = [];
    for (const item of list.items) {
      try {
        deleted.push(await this.delete(item.metadata.namespace, item.metadata.name ?? '', opts));
      } catch (err) {
        // Someone else deleted it meanwhile: that is the outcome we wanted.
        if (!(err instanceof Error && 'code' in err && err.code === 404)) throw err;
      }
    }
    return { ...list, items: deleted };
  }

  /** The served object of a stored key-value (resourceVersion from `revision`, default its own). */
  decode(kv: KeyValue, revision: number = kv.modRevision): KObject {
    const stored = decodeKeyValue(kv, revision);
    return this.withType(this.decl.storedAs === undefined ? stored : this.decl.storedAs.fromStored(stored));
  }

  /** The stored bytes of a served object. */
  encode(obj: KObject): Uint8Array {
    return encodeObject(this.decl.storedAs === undefined ? obj : this.decl.storedAs.toStored(obj));
  }

  /**
   * The served object of a stored key-value, as every read and write of the store takes it: the
   * decoded object, or for a custom kind converted by a webhook, the webhook's conversion.
   */
  load(kv: KeyValue, revision: number = kv.modRevision): Promise<KObject> | KObject {
    return this.decode(kv, revision);
  }

  /** The stored bytes of a served object, as every write of the store makes them (see `load`). */
  dump(obj: KObject): Promise<Uint8Array> | Uint8Array {
    return this.encode(obj);
  }

  /**
   * Registers a running watch's stop function; returns the function that forgets it. A store that
   * can be retired while serving (a custom kind whose definition changed) stops its watches then,
   * as kube-apiserver tears down a custom resource's storage; the generic store keeps none.
   */
  trackWatch(_stop: () => void): () => void {
    return () => undefined;
  }

  /** Sets apiVersion and kind to this resource's. */
  withType(obj: KObject): KObject {
    obj.apiVersion = this.served.apiVersion;
    obj.kind = this.decl.kind;
    return obj;
  }

  /** Runs `fn`, turning any storage error into a StatusError. */
  async guard<T>(name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toStatusError(err, this.gr, name);
    }
  }

  private context(opts: WriteOptions): WriteContext {
    return {
      fieldManager: opts.fieldManager,
      apiVersion: this.served.apiVersion,
      now: new Date(),
      ...(opts.subresource ? { subresource: opts.subresource } : {}),
      ...(opts.appliedManagedFields ? { appliedManagedFields: opts.appliedManagedFields } : {}),
    };
  }

  /**
   * The stored object an update starts from. An update pinned to a resourceVersion this replica
   * has applied, and still holds the object at, may start from the local state: the write is
   * conditional on that very revision, so the leader refuses it if anything changed since. Every
   * other case (no version, a version not reached here, a mismatch, absence) takes a
   * linearizable read, so answers are exactly those of a read at the leader; the common case
   * saves a ReadIndex round.
   */
  private async currentForUpdate(key: string, requested: string | undefined): Promise<KeyValue | null> {
    const pinned = requested === undefined ? undefined : revisionOf(requested);
    if (pinned !== undefined && pinned > 0 && this.storage.localRevision() >= pinned) {
      const local = await this.storage.get(key, { consistency: 'local' });
      if (local !== null && local.modRevision === pinned) return local;
    }
    return this.storage.get(key);
  }

  /** The update path shared by PUT and PATCH. Throws raw StorageError Conflict so patch may retry. */
  private async updateFrom(current: KeyValue, input: KObject, opts: WriteOptions): Promise<WriteResult> {
    const old = await this.load(current);
    const name = old.metadata.name ?? '';
    const requested = input.metadata.resourceVersion;
    if (requested !== undefined && requested !== '' && requested !== old.metadata.resourceVersion) throw conflict(this.gr, name, CONFLICT_MODIFIED);
    if (input.metadata.uid !== undefined && input.metadata.uid !== '' && input.metadata.uid !== old.metadata.uid) {
      throw conflict(this.gr, name, `Precondition failed: UID in precondition: ${String(input.metadata.uid)}, UID in object meta: ${old.metadata.uid ?? ''}`);
    }
    const next = await this.admitted('UPDATE', this.withType(this.mergeSubresource(input, old, opts.subresource)), old, opts);
    prepareUpdateMetadata(next, old, this.decl, this.context(opts));
    const view = this.viewOf(opts.subresource);
    const warnings = runUpdateStrategy(this.decl, this.gr.group, next, old, view);
    await opts.admission?.validate('UPDATE', next, old);
    const key = current.key;
    const finished = next.metadata.deletionTimestamp !== undefined && (next.metadata.finalizers ?? []).length === 0 && (this.decl.strategy.removableAfterUpdate?.(next) ?? true);
    const finish = opts.subresource === undefined && !finished ? await this.hooks.beginUpdate?.(next, old, opts.dryRun === true, writerOf(opts)) : undefined;
    // A write that changes only ownership (e.g. a second applier sharing a value) is still a write.
    const sameOwners = stableStringify(next.metadata.managedFields ?? []) === stableStringify(old.metadata.managedFields ?? []);
    const unchanged = sameContent(next, old) && sameOwners;
    if (unchanged || opts.dryRun) {
      await finish?.('refused');
      if (unchanged) return { object: old, warnings, created: false };
      return { object: { ...next, metadata: { ...next.metadata, resourceVersion: old.metadata.resourceVersion } }, warnings, created: false };
    }
    return finishing(finish, async () => {
      if (finished) {
        const removed = await this.load(await this.storage.delete(key, { expectedRevision: current.modRevision }));
        await this.hooks.afterDelete?.(removed);
        return { object: removed, warnings, created: false };
      }
      const kv = await this.storage.update(key, await this.dump(next), { expectedRevision: current.modRevision });
      return { object: await this.load(kv), warnings, created: false };
    });
  }

  /**
   * The object after mutating admission (with this resource's type again: a webhook's patch may
   * not change what it is); `obj` itself when the write has no admission.
   */
  private async admitted(operation: 'CREATE' | 'UPDATE', obj: KObject, old: KObject | undefined, opts: WriteOptions): Promise<KObject> {
    if (opts.admission === undefined) return obj;
    const mutated = await opts.admission.mutate(operation, obj, old);
    if (mutated === undefined || typeof mutated !== 'object' || Array.isArray(mutated) || typeof mutated.metadata !== 'object' || mutated.metadata === null || Array.isArray(mutated.metadata)) {
      throw internalError('admission turned the object into something that is not an object with metadata');
    }
    // Built-in plugins change the object in place with well-typed values; only a webhook's patch
    // replaces it, and only that needs decoding (no serialization of every write to find out).
    if (mutated !== obj) this.decodeAdmitted(mutated);
    return this.withType(mutated);
  }

  /**
   * What admission changed, decoded as kube-apiserver decodes a webhook's patched object into the
   * kind's Go type: unknown fields dropped, a value of the wrong type (which no Go client could
   * decode) a 500, as kube's mutating dispatcher answers a patch it cannot decode.
   */
  private decodeAdmitted(obj: KObject): void {
    if (this.decl.custom === true) return;
    const result = checkSchema(obj, objectSchema(this.decl), true, this.decl.kind, true);
    if (result.decodeErrors.length > 0) throw internalError(`admission produced an object that cannot be decoded: ${result.decodeErrors.join('; ')}`);
  }

  /** The view a write through `subresource` goes by: a declared view sub-resource, or the kind's status view; undefined for a plain status write or the object itself. */
  private viewOf(subresource: string | undefined): SubresourceView | undefined {
    if (subresource === undefined) return undefined;
    if (subresource === 'status') return this.decl.subresources?.statusView;
    return this.decl.subresources?.more?.[subresource]?.view;
  }

  /** Main writes keep the stored status; status writes change only the status; a view's writes what the view says. */
  private mergeSubresource(input: KObject, old: KObject, subresource: WriteOptions['subresource']): KObject {
    const view = this.viewOf(subresource);
    if (view !== undefined) {
      const next = view.merge(input, old);
      next.metadata.resourceVersion = input.metadata.resourceVersion;
      return next;
    }
    if (subresource === 'status') {
      const next = cloneObject(old);
      if (input.status === undefined) delete next.status;
      else next.status = input.status;
      next.metadata.resourceVersion = input.metadata.resourceVersion;
      return next;
    }
    if (this.decl.subresources?.status) {
      if (old.status === undefined) delete input.status;
      else input.status = cloneObject(old.status);
    }
    return input;
  }
}

