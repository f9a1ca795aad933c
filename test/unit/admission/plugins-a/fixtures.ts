// Shared fakes for the admission plugin tests: an in-memory object reader with a "local" view
// (this replica's state) and a "live" view (what a consistent read sees), a writer, and
// hand-built admission attributes.
import { alreadyExists } from '../../../../internal/registry/errors/status-error.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource, Operation } from '../../../../internal/admission/attributes.ts';
import type { AdmissionDeps, AdmissionPlugin, GroupResourceName, ObjectReader, ObjectWriter, PluginFactory, ReadOptions } from '../../../../internal/admission/plugin.ts';
import { allowed } from '../../../../internal/authz/authorizer.ts';

type Key = string;

function keyOf(gr: GroupResourceName, namespace: string | undefined, name: string): Key {
  return `${gr.group}/${gr.resource}/${namespace ?? ''}/${name}`;
}

/** One read the plugin made. */
export interface ReadRecord {
  readonly op: 'get' | 'list';
  readonly resource: string;
  readonly name?: string;
  readonly consistent: boolean;
}

/** An in-memory reader: `local` is what this replica holds, `live` what the leader holds. */
export class FakeObjects implements ObjectReader {
  readonly local = new Map<Key, KObject>();
  readonly live = new Map<Key, KObject>();
  readonly reads: ReadRecord[] = [];
  /** Set to make every read throw it. */
  failWith: Error | undefined;

  /** Stores `object` in both views (or only one). */
  put(gr: GroupResourceName, object: KObject, where: 'both' | 'local' | 'live' = 'both'): this {
    const key = keyOf(gr, object.metadata.namespace, object.metadata.name ?? '');
    if (where !== 'live') this.local.set(key, structuredClone(object));
    if (where !== 'local') this.live.set(key, structuredClone(object));
    return this;
  }

  async get(gr: GroupResourceName, namespace: string | undefined, name: string, options?: ReadOptions): Promise<KObject | undefined> {
    const consistent = options?.consistent === true;
    this.reads.push({ op: 'get', resource: gr.resource, name, consistent });
    if (this.failWith) throw this.failWith;
    const found = (consistent ? this.live : this.local).get(keyOf(gr, namespace, name));
    return found === undefined ? undefined : structuredClone(found);
  }

  async list(gr: GroupResourceName, namespace: string | undefined, options?: ReadOptions): Promise<readonly KObject[]> {
    const consistent = options?.consistent === true;
    this.reads.push({ op: 'list', resource: gr.resource, consistent });
    if (this.failWith) throw this.failWith;
    const prefix = `${gr.group}/${gr.resource}/${namespace ?? ''}`;
    return [...(consistent ? this.live : this.local)].filter(([k]) => (namespace === undefined ? k.startsWith(`${gr.group}/${gr.resource}/`) : k.startsWith(`${prefix}/`))).map(([, o]) => structuredClone(o));
  }
}

/** A writer that creates into the reader's live view (and records what it wrote). */
export class FakeWriter implements ObjectWriter {
  readonly created: { gr: GroupResourceName; object: KObject }[] = [];
  constructor(private readonly objects: FakeObjects) {}

  async create(gr: GroupResourceName, namespace: string | undefined, object: KObject): Promise<KObject> {
    const key = keyOf(gr, namespace, object.metadata.name ?? '');
    if (this.objects.live.has(key)) throw alreadyExists({ group: gr.group, resource: gr.resource }, object.metadata.name ?? '');
    this.created.push({ gr, object });
    this.objects.live.set(key, structuredClone(object));
    return object;
  }

  async update(_gr: GroupResourceName, _namespace: string | undefined, object: KObject): Promise<KObject> {
    return object;
  }
}

/** A settable clock. */
export class FakeClock {
  nowMs = 1_000_000;
  readonly now = (): number => this.nowMs;
}

/** Deps around the fakes. */
export function depsOf(objects = new FakeObjects(), clock = new FakeClock()): AdmissionDeps & { objects: FakeObjects; writer: FakeWriter } {
  return { apiDomain: 'k8s.io', objects, writer: new FakeWriter(objects), authorizer: { authorize: () => allowed }, log: () => {}, clock: clock.now };
}

/** Group/resources used across the tests. */
export const gr = {
  namespaces: { group: '', resource: 'namespaces' },
  pods: { group: '', resource: 'pods' },
  serviceaccounts: { group: '', resource: 'serviceaccounts' },
  priorityclasses: { group: 'scheduling.k8s.io', resource: 'priorityclasses' },
  runtimeclasses: { group: 'node.k8s.io', resource: 'runtimeclasses' },
  storageclasses: { group: 'storage.k8s.io', resource: 'storageclasses' },
  ingressclasses: { group: 'networking.k8s.io', resource: 'ingressclasses' },
} as const;

/** What a test states about a request; the rest is filled in. */
export interface AttributesInput {
  operation?: Operation;
  resource?: Partial<GroupVersionResource> & { resource: string };
  subresource?: string;
  kind?: Partial<GroupVersionKind> & { kind: string };
  namespace?: string;
  name?: string;
  object?: KObject;
  oldObject?: KObject;
  dryRun?: boolean;
}

/** Admission attributes for a request (a pod CREATE in `ns` unless told otherwise). */
export function attributesOf(input: AttributesInput = {}): AdmissionAttributes {
  const resource = { group: '', version: 'v1', ...(input.resource ?? { resource: 'pods' }) };
  const kind = { group: resource.group, version: resource.version, ...(input.kind ?? { kind: 'Pod' }) };
  return {
    operation: input.operation ?? 'CREATE',
    resource,
    subresource: input.subresource ?? '',
    kind,
    namespace: input.namespace ?? 'ns',
    name: input.name ?? input.object?.metadata.name ?? '',
    object: input.object,
    oldObject: input.oldObject,
    operationOptions: undefined,
    dryRun: input.dryRun ?? false,
    userInfo: { username: 'alice', uid: '', groups: ['system:authenticated'], extra: {} },
    reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
    addAnnotation: () => {},
    addWarning: () => {},
  };
}

/** A pod object. */
export function pod(name: string, spec: Record<string, unknown> = {}, metadata: Partial<KObject['metadata']> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ...metadata }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } };
}

/** A cluster-scoped or namespaced object of any kind. */
export function object(kind: string, name: string, fields: Record<string, unknown> = {}, metadata: Partial<KObject['metadata']> = {}): KObject {
  return { kind, metadata: { name, ...metadata }, ...fields };
}

/** Runs the plugin's mutating then validating phase as the chain would (each only when handled). */
export async function admitAndValidate(plugin: AdmissionPlugin, attributes: AdmissionAttributes): Promise<void> {
  if (!plugin.handles(attributes.operation)) return;
  await plugin.admit?.(attributes);
  await plugin.validate?.(attributes);
}

/** Makes a plugin with the fakes. */
export function make(factory: PluginFactory, deps = depsOf(), configuration?: unknown): AdmissionPlugin {
  return factory(deps, configuration);
}

/** A matcher for assert.rejects: the StatusError's code and message. */
export function status(code: number, message: string | RegExp): (err: unknown) => boolean {
  return (err) => {
    const e = err as { code?: number; message?: string };
    if (e.code !== code) throw new Error(`expected code ${code}, got ${String(e.code)}: ${String(e.message)}`);
    const ok = typeof message === 'string' ? e.message === message : message.test(e.message ?? '');
    if (!ok) throw new Error(`unexpected message: ${String(e.message)}`);
    return true;
  };
}
