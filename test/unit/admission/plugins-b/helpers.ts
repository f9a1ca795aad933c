// Shared test doubles for the admission plugins of this folder: hand-built attributes, an
// in-memory object reader, a recording authorizer and deps with a settable clock.
import assert from 'node:assert/strict';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource, Operation } from '../../../../internal/admission/attributes.ts';
import type { AdmissionDeps, GroupResourceName, ObjectReader, ReadOptions } from '../../../../internal/admission/plugin.ts';
import type { UserInfo } from '../../../../internal/authn/user-info.ts';
import type { Attributes, Decision } from '../../../../internal/authz/authorizer.ts';
import { StatusError } from '../../../../internal/registry/errors/status-error.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';

/** A user for requests. */
export function user(username: string, groups: readonly string[] = ['system:authenticated']): UserInfo {
  return { username, uid: '', groups, extra: {} };
}

/** What a test sets on attributes; everything else has a plain default. */
export interface AttributeSpec {
  operation?: Operation;
  resource?: Partial<GroupVersionResource>;
  subresource?: string;
  kind?: Partial<GroupVersionKind>;
  namespace?: string;
  name?: string;
  object?: KObject;
  oldObject?: KObject;
  dryRun?: boolean;
  userInfo?: UserInfo;
}

/** Attributes with the audit annotations they were given. */
export type TestAttributes = AdmissionAttributes & { readonly annotations: Map<string, string>; readonly warnings: string[] };

/** Builds attributes for a pod create in `default` unless told otherwise. */
export function attributes(spec: AttributeSpec = {}): TestAttributes {
  const annotations = new Map<string, string>();
  const warnings: string[] = [];
  return {
    operation: spec.operation ?? 'CREATE',
    resource: { group: '', version: 'v1', resource: 'pods', ...spec.resource },
    subresource: spec.subresource ?? '',
    kind: { group: '', version: 'v1', kind: 'Pod', ...spec.kind },
    namespace: spec.namespace ?? 'default',
    name: spec.name ?? '',
    object: spec.object,
    oldObject: spec.oldObject,
    operationOptions: undefined,
    dryRun: spec.dryRun ?? false,
    userInfo: spec.userInfo ?? user('alice'),
    reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
    addAnnotation(key, value) {
      if (!annotations.has(key)) annotations.set(key, value);
    },
    addWarning(text) {
      warnings.push(text);
    },
    annotations,
    warnings,
  };
}

/** A pod object. */
export function pod(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...metadata }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } };
}

/** A namespace object with annotations. */
export function namespace(name: string, annotations: Record<string, string> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, annotations } };
}

/** An in-memory ObjectReader holding objects by `<group>/<resource>/<namespace>/<name>`. */
export class FakeReader implements ObjectReader {
  private readonly objects = new Map<string, KObject>();
  /** Each get, with whether it asked for a consistent read. */
  readonly gets: { key: string; consistent: boolean }[] = [];
  /** Keys found only by a consistent read (the replica lags behind the leader). */
  readonly leaderOnly = new Set<string>();

  private static key(gr: GroupResourceName, namespace: string | undefined, name: string): string {
    return `${gr.group}/${gr.resource}/${namespace ?? ''}/${name}`;
  }

  /** Stores `object` under its metadata namespace and name. */
  put(gr: GroupResourceName, object: KObject, options: { leaderOnly?: boolean } = {}): this {
    const key = FakeReader.key(gr, object.metadata.namespace, object.metadata.name ?? '');
    this.objects.set(key, object);
    if (options.leaderOnly === true) this.leaderOnly.add(key);
    return this;
  }

  async get(gr: GroupResourceName, namespace: string | undefined, name: string, options?: ReadOptions): Promise<KObject | undefined> {
    const key = FakeReader.key(gr, namespace, name);
    const consistent = options?.consistent === true;
    this.gets.push({ key, consistent });
    if (this.leaderOnly.has(key) && !consistent) return undefined;
    const found = this.objects.get(key);
    return found === undefined ? undefined : structuredClone(found);
  }

  async list(gr: GroupResourceName, namespace: string | undefined): Promise<readonly KObject[]> {
    const prefix = `${gr.group}/${gr.resource}/`;
    return [...this.objects.entries()].filter(([k, o]) => k.startsWith(prefix) && (namespace === undefined || o.metadata.namespace === namespace)).map(([, o]) => structuredClone(o));
  }
}

/** Deps with a fake reader, an allow-all recording authorizer and a clock tests move. */
export interface TestDeps extends AdmissionDeps {
  readonly reader: FakeReader;
  readonly checks: Attributes[];
  nowMs: number;
  decide: (attributes: Attributes) => Decision;
  readonly logs: string[];
}

/** Builds TestDeps. */
export function testDeps(): TestDeps {
  const reader = new FakeReader();
  const deps: TestDeps = {
    apiDomain: 'k8s.io',
    reader,
    objects: reader,
    writer: {
      create: () => Promise.reject(new Error('no writes in these tests')),
      update: () => Promise.reject(new Error('no writes in these tests')),
    },
    checks: [],
    decide: () => ({ decision: 'allow', reason: '' }),
    authorizer: {
      authorize: (a) => {
        deps.checks.push(a);
        return deps.decide(a);
      },
    },
    logs: [],
    log: (message) => {
      deps.logs.push(message);
    },
    nowMs: 1_000_000,
    clock: () => deps.nowMs,
  };
  return deps;
}

/** Asserts that `action` rejects with a StatusError of `code` and exactly `message`. */
export async function rejectsWith(action: Promise<unknown>, code: number, message: string): Promise<StatusError> {
  let caught: unknown;
  try {
    await action;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof StatusError, `expected a StatusError, got ${String(caught)}`);
  assert.equal(caught.message, message);
  assert.equal(caught.code, code);
  return caught;
}
