// Builds what the PodSecurity tests need by hand: admission attributes that record warnings and
// audit annotations, an in-memory ObjectReader, namespaces and pods, and a plugin over them.
import type { AdmissionAttributes, Operation } from '../../../../internal/admission/attributes.ts';
import type { AdmissionDeps, AdmissionPlugin, GroupResourceName, ObjectReader, ReadOptions } from '../../../../internal/admission/plugin.ts';
import { podSecurityPlugin } from '../../../../internal/admission/plugins/podsecurity/podsecurity-plugin.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';

/** Attributes plus what the plugin told the request. */
export interface RecordingAttributes extends AdmissionAttributes {
  readonly warnings: string[];
  readonly annotations: Map<string, string>;
}

/** What a test says about a request; everything else has a plain default. */
export interface RequestShape {
  readonly operation?: Operation;
  readonly group?: string;
  readonly resource?: string;
  readonly kind?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly object?: KObject;
  readonly oldObject?: KObject;
  readonly username?: string;
}

/** Admission attributes for a request (a pod CREATE in `ns` by default). */
export function attributes(shape: RequestShape): RecordingAttributes {
  const warnings: string[] = [];
  const annotations = new Map<string, string>();
  return {
    operation: shape.operation ?? 'CREATE',
    resource: { group: shape.group ?? '', version: 'v1', resource: shape.resource ?? 'pods' },
    subresource: shape.subresource ?? '',
    kind: { group: shape.group ?? '', version: 'v1', kind: shape.kind ?? 'Pod' },
    namespace: shape.namespace ?? 'ns',
    name: shape.name ?? shape.object?.metadata.name ?? '',
    object: shape.object,
    oldObject: shape.oldObject,
    operationOptions: undefined,
    dryRun: false,
    userInfo: { username: shape.username ?? 'alice', uid: '', groups: ['system:authenticated'], extra: {} },
    reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
    addAnnotation(key, value) {
      if (!annotations.has(key)) annotations.set(key, value);
    },
    addWarning(text) {
      warnings.push(text);
    },
    warnings,
    annotations,
  };
}

/** An in-memory ObjectReader over namespaces and pods, counting reads. */
export class MemoryObjects implements ObjectReader {
  readonly namespaces = new Map<string, KObject>();
  readonly pods: KObject[] = [];
  listFailure: Error | undefined;
  /** Namespaces only a consistent read sees (created a moment ago, not yet in the informer). */
  readonly freshNamespaces = new Map<string, KObject>();

  async get(gr: GroupResourceName, _namespace: string | undefined, name: string, options?: ReadOptions): Promise<KObject | undefined> {
    if (gr.group !== '' || gr.resource !== 'namespaces') return undefined;
    return this.namespaces.get(name) ?? (options?.consistent === true ? this.freshNamespaces.get(name) : undefined);
  }

  async list(gr: GroupResourceName, namespace: string | undefined): Promise<readonly KObject[]> {
    if (this.listFailure !== undefined) throw this.listFailure;
    if (gr.group !== '' || gr.resource !== 'pods') return [];
    return this.pods.filter((p) => namespace === undefined || p.metadata.namespace === namespace);
  }
}

/** A namespace with the given labels. */
export function namespace(name: string, labels: Record<string, string> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels }, spec: {} };
}

/** A pod in `ns` with the given spec (and optional metadata extras). */
export function pod(name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ...metadata }, spec };
}

/** A pod spec with one container named `name` carrying `securityContext`. */
export function oneContainer(name: string, securityContext?: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { containers: [{ name, image: 'nginx', ...(securityContext === undefined ? {} : { securityContext }) }], ...extra };
}

/** A container security context that passes the restricted level. */
export const restrictedContainerContext = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  runAsNonRoot: true,
  seccompProfile: { type: 'RuntimeDefault' },
};

/** Deps for the factory: the reader and a clock the test controls; nothing else is used. */
export function deps(objects: ObjectReader, clock: () => number = () => 0): AdmissionDeps {
  return {
    apiDomain: 'k8s.io',
    objects,
    writer: {
      create: () => Promise.reject(new Error('the PodSecurity plugin never writes')),
      update: () => Promise.reject(new Error('the PodSecurity plugin never writes')),
    },
    authorizer: { authorize: () => ({ decision: 'no-opinion', reason: '' }) },
    log: () => undefined,
    clock,
  };
}

/** The plugin over `objects`, with an optional configuration. */
export function plugin(objects: ObjectReader, configuration?: unknown, clock?: () => number): AdmissionPlugin {
  return podSecurityPlugin(deps(objects, clock), configuration);
}

/** Runs the plugin's validate and returns the error it threw (undefined when it allowed). */
export async function validate(p: AdmissionPlugin, attrs: AdmissionAttributes): Promise<unknown> {
  try {
    await p.validate?.(attrs);
    return undefined;
  } catch (err) {
    return err;
  }
}
