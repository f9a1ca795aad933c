// An in-memory ObjectReader/ObjectWriter for admission plugin tests: updates compare-and-swap on
// resourceVersion as the replicated store does (409 when stale), a status update replaces only
// status, every call yields to the event loop first so concurrent admissions interleave, and a
// test can make the next updates fail with 409 to exercise retries.
import type { AdmissionDeps, GroupResourceName, ObjectReader, ObjectWriter, ReadOptions } from '../../../../internal/admission/plugin.ts';
import type { AdmissionAttributes, Operation } from '../../../../internal/admission/attributes.ts';
import { allowed } from '../../../../internal/authz/authorizer.ts';
import { conflict, CONFLICT_MODIFIED, notFound } from '../../../../internal/registry/errors/status-error.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';

function key(gr: GroupResourceName, namespace: string | undefined, name: string): string {
  return `${gr.group}/${gr.resource}/${namespace ?? ''}/${name}`;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The fake store. Objects are copied in and out, as a real store would. */
export class FakeObjects implements ObjectReader, ObjectWriter {
  private readonly objects = new Map<string, KObject>();
  private revision = 0;
  /** Updates still to fail with 409 before the store behaves again. */
  failNextUpdates = 0;
  /** Every update attempted, successful or not. */
  readonly updates: { name: string; resourceVersion: string | undefined; ok: boolean }[] = [];
  /** Every read option a list was called with. */
  readonly listOptions: (ReadOptions | undefined)[] = [];

  /** Stores an object as it is (a fresh resourceVersion). */
  put(gr: GroupResourceName, object: KObject): KObject {
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = String(++this.revision);
    this.objects.set(key(gr, stored.metadata.namespace, stored.metadata.name ?? ''), stored);
    return structuredClone(stored);
  }

  /** The stored object, for assertions. */
  peek(gr: GroupResourceName, namespace: string, name: string): KObject | undefined {
    const o = this.objects.get(key(gr, namespace, name));
    return o === undefined ? undefined : structuredClone(o);
  }

  async get(gr: GroupResourceName, namespace: string | undefined, name: string): Promise<KObject | undefined> {
    await tick();
    const o = this.objects.get(key(gr, namespace, name));
    return o === undefined ? undefined : structuredClone(o);
  }

  async list(gr: GroupResourceName, namespace: string | undefined, options?: ReadOptions): Promise<readonly KObject[]> {
    this.listOptions.push(options);
    await tick();
    const prefix = `${gr.group}/${gr.resource}/${namespace ?? ''}/`;
    return [...this.objects].filter(([k]) => k.startsWith(prefix)).map(([, o]) => structuredClone(o));
  }

  async create(gr: GroupResourceName, _namespace: string | undefined, object: KObject): Promise<KObject> {
    await tick();
    return this.put(gr, object);
  }

  async update(gr: GroupResourceName, namespace: string | undefined, object: KObject, options?: { readonly subresource?: 'status' }): Promise<KObject> {
    await tick();
    const name = object.metadata.name ?? '';
    const stored = this.objects.get(key(gr, namespace, name));
    const record = { name, resourceVersion: object.metadata.resourceVersion, ok: false };
    this.updates.push(record);
    if (stored === undefined) throw notFound(gr, name);
    if (this.failNextUpdates > 0 || stored.metadata.resourceVersion !== object.metadata.resourceVersion) {
      if (this.failNextUpdates > 0) this.failNextUpdates--;
      throw conflict(gr, name, CONFLICT_MODIFIED);
    }
    record.ok = true;
    const next = options?.subresource === 'status' ? { ...stored, status: structuredClone(object.status) } : structuredClone(object);
    return this.put(gr, next);
  }
}

/** The deps a plugin gets, around a fake store and a fixed clock. */
export function fakeDeps(objects: FakeObjects, nowMs = Date.parse('2026-01-01T00:00:00Z')): AdmissionDeps {
  return {
    apiDomain: 'k8s.io',
    objects,
    writer: objects,
    authorizer: { authorize: () => allowed },
    log: () => undefined,
    clock: () => nowMs,
  };
}

/** What a test states about a request; the rest is filled in. */
export interface RequestSpec {
  readonly operation?: Operation;
  readonly group?: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly object: KObject | undefined;
  readonly oldObject?: KObject;
  readonly subresource?: string;
  readonly dryRun?: boolean;
}

/** Admission attributes for a request, recording the annotations plugins add. */
export function attributes(spec: RequestSpec): AdmissionAttributes & { readonly annotations: Map<string, string> } {
  const annotations = new Map<string, string>();
  return {
    operation: spec.operation ?? 'CREATE',
    resource: { group: spec.group ?? '', version: 'v1', resource: spec.resource },
    subresource: spec.subresource ?? '',
    kind: { group: spec.group ?? '', version: 'v1', kind: spec.kind },
    namespace: spec.namespace ?? 'ns',
    name: spec.object?.metadata.name ?? '',
    object: spec.object,
    oldObject: spec.oldObject,
    operationOptions: undefined,
    dryRun: spec.dryRun ?? false,
    userInfo: { username: 'alice', uid: '', groups: ['system:authenticated'], extra: {} },
    reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
    addAnnotation: (k, v) => {
      if (!annotations.has(k)) annotations.set(k, v);
    },
    addWarning: () => undefined,
    annotations,
  };
}

/** A pod in `ns` with the given containers. */
export function pod(name: string, containers: Record<string, unknown>[], extra: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers, ...extra } };
}
