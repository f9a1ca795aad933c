// What an admission plugin is told about a request (k8s.io/apiserver/pkg/admission's Attributes):
// the operation, the resource and kind as requested, the object (mutable in the mutating phase)
// and the stored one, the user after impersonation, dry run, and the sinks for audit annotations
// and warnings that the handler turns into the response's headers and the audit record.
import type { UserInfo } from '../authn/user-info.ts';
import type { AdmissionOperation } from '../registry/generic/write-admission.ts';
import type { KObject } from '../registry/schema/declaration.ts';

/** The operations admission sees (never reads). */
export type Operation = AdmissionOperation;

export interface GroupVersionResource {
  /** '' for the core group; the full group otherwise (`apps`, `networking.k8s.io`). */
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * Shared by the passes of one request's mutating phase: a mutating webhook with
 * `reinvocationPolicy: IfNeeded` asks for one more pass when a later plugin changed the object;
 * the chain then runs every mutating plugin once more with `isReinvoke` set. `values` keeps each
 * plugin's own memory between the passes (by plugin name).
 */
export interface ReinvocationContext {
  isReinvoke: boolean;
  shouldReinvoke: boolean;
  readonly values: Map<string, unknown>;
}

/** One request's admission attributes. */
export interface AdmissionAttributes {
  readonly operation: Operation;
  /** The resource as the request named it (group, version, plural). */
  readonly resource: GroupVersionResource;
  /** The sub-resource ('' for the main resource): `status`, `scale`, `eviction`, `binding`, ... */
  readonly subresource: string;
  /** The kind of `object` (for DELETE, of the stored object). */
  readonly kind: GroupVersionKind;
  /** '' for cluster-scoped resources. */
  readonly namespace: string;
  /** '' when a create leaves it to generateName. */
  readonly name: string;
  /**
   * The incoming object: for CREATE and UPDATE the object to store, which mutating plugins may
   * change in place or replace; for a sub-resource, the sub-resource's object (Eviction, Binding,
   * Scale); undefined for DELETE and CONNECT without a body.
   */
  object: KObject | undefined;
  /** The stored object on UPDATE and DELETE; undefined on CREATE. */
  readonly oldObject: KObject | undefined;
  /** CreateOptions, UpdateOptions, DeleteOptions or the CONNECT options as the request gave them. */
  readonly operationOptions: Readonly<Record<string, unknown>> | undefined;
  readonly dryRun: boolean;
  readonly userInfo: UserInfo;
  readonly reinvocation: ReinvocationContext;
  /** Adds an audit annotation (`<plugin-name>/<key>` by convention); a key set twice keeps its first value. */
  addAnnotation(key: string, value: string): void;
  /** Adds a warning for the client (an HTTP `Warning: 299 - "<text>"` header). */
  addWarning(text: string): void;
}
