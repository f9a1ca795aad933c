// The contract of an admission plugin and what the replica hands plugins (k8s.io/apiserver's
// admission.Interface, MutationInterface, ValidationInterface and the initializers' wants).
import type { Authorizer } from '../authz/authorizer.ts';
import type { KObject } from '../registry/schema/declaration.ts';
import type { AdmissionAttributes, Operation } from './attributes.ts';

/**
 * A compiled-in plugin. `admit` (mutating phase) may change `attributes.object`; `validate`
 * (validating phase) must not. Either refuses by throwing a StatusError (most often
 * admissionForbidden's 403). `handles` narrows the operations it is called for.
 */
export interface AdmissionPlugin {
  readonly name: string;
  handles(operation: Operation): boolean;
  admit?(attributes: AdmissionAttributes): Promise<void>;
  validate?(attributes: AdmissionAttributes): Promise<void>;
}

/** A group and resource as served (full group name: '' core, `apps`, `scheduling.k8s.io`). */
export interface GroupResourceName {
  readonly group: string;
  readonly resource: string;
}

/** Options of a read through ObjectReader. */
export interface ReadOptions {
  /**
   * True to read at the leader (a linearizable read); otherwise this replica's state is read, as
   * kube-apiserver's plugins read their informers' caches.
   */
  readonly consistent?: boolean;
  /** A label selector in its text form (list only). */
  readonly labelSelector?: string;
  /** A field selector in its text form (list only). */
  readonly fieldSelector?: string;
}

/** Reads objects of any served resource: the plugins' informers. */
export interface ObjectReader {
  /** The object, or undefined when there is none (or the resource is not served). */
  get(gr: GroupResourceName, namespace: string | undefined, name: string, options?: ReadOptions): Promise<KObject | undefined>;
  /** The objects of a namespace (every namespace when `namespace` is undefined). */
  list(gr: GroupResourceName, namespace: string | undefined, options?: ReadOptions): Promise<readonly KObject[]>;
}

/** What the server writes for a plugin, with its own authority (NamespaceAutoProvision, ResourceQuota). */
export interface ObjectWriter {
  create(gr: GroupResourceName, namespace: string | undefined, object: KObject): Promise<KObject>;
  /**
   * Replaces the object (or its status, with `subresource: 'status'`) if its resourceVersion is
   * still the one it carries; a StatusError 409 Conflict otherwise.
   */
  update(gr: GroupResourceName, namespace: string | undefined, object: KObject, options?: { readonly subresource?: 'status' }): Promise<KObject>;
}

/** What the replica gives every plugin. */
export interface AdmissionDeps {
  /** The domain API groups are named in (`k8s.io`: `rbac.authorization.k8s.io`). */
  readonly apiDomain: string;
  readonly objects: ObjectReader;
  readonly writer: ObjectWriter;
  readonly authorizer: Authorizer;
  readonly log: (message: string, err?: unknown) => void;
  /** Wall-clock milliseconds (tests give their own). */
  readonly clock: () => number;
}

/**
 * Makes a plugin: `configuration` is the plugin's entry of the AdmissionConfiguration file
 * (its inline `configuration`, or the file its `path` names, parsed from YAML or JSON), or
 * undefined when the file names none. A bad configuration throws an Error naming what is wrong
 * (the replica then refuses to start).
 */
export type PluginFactory = (deps: AdmissionDeps, configuration: unknown) => AdmissionPlugin;
