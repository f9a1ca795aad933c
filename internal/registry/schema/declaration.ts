import type { FieldSchema } from './field-schema.ts';
import type { FieldError } from './field-errors.ts';
import type { UserInfo } from '../../authn/user-info.ts';

/** An API object as the registry handles it: parsed JSON with a metadata map. */
export type KObject = Record<string, unknown> & { metadata: ObjectMeta };

/** The metadata fields the registry reads and writes; others pass through. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

/** One column of a resource's table (`kubectl get`). */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly description?: string;
  readonly format?: string;
  /** 0 shown always; 1 only with `-o wide`. */
  readonly priority?: number;
  readonly cell: (obj: KObject, now: Date) => string | number | boolean | null;
}

/**
 * How a resource behaves on writes. Every hook is optional; hooks mutate the object given to
 * them, and validators are pure (they return field errors, never throw).
 */
export interface Strategy {
  /**
   * Normalizes a new object before validation (e.g. clears status). `requester` is the request's
   * user (after impersonation), absent for the server's own writes: kube's PrepareForCreate reads it
   * from the request context (a CSR records who asked), before validating admission sees the object.
   */
  prepareForCreate?(obj: KObject, requester?: UserInfo): void;
  /** Fills defaults (on create and update). */
  applyDefaults?(obj: KObject): void;
  /** Validates an object on create and on update. */
  validate?(obj: KObject): FieldError[];
  /** Validates a new object only (upstream's create-only rules, e.g. a name length a controller needs). */
  validateCreate?(obj: KObject): FieldError[];
  /** Normalizes an updated object given the stored one (e.g. keeps status). */
  prepareForUpdate?(obj: KObject, old: KObject): void;
  validateUpdate?(obj: KObject, old: KObject): FieldError[];
  /** Puts the object in its canonical stored form, after validation. */
  canonicalize?(obj: KObject): void;
  /** Non-fatal messages returned as `Warning` headers. */
  warnings?(obj: KObject, old?: KObject): string[];
  /** Whether PUT of a missing object creates it. */
  readonly allowCreateOnUpdate?: boolean;
  /**
   * Whether an update that leaves a terminating object without metadata.finalizers may remove it
   * (absent: yes). Namespaces also wait for their spec.finalizers.
   */
  removableAfterUpdate?(obj: KObject): boolean;
}

/** The sub-resources a resource may have. */
export interface Subresources {
  /** `status`: writes through it change only `.status`; main writes keep the stored status. */
  readonly status?: boolean;
  /**
   * How a status write changes the stored object when the kind's status strategy does more than
   * take `.status` (CertificateSigningRequests keep their approval conditions): the view's merge
   * and validateUpdate stand in for the plain status merge and the kind's validateUpdate.
   */
  readonly statusView?: SubresourceView;
  /** `finalize` (namespaces): PUT replaces only spec.finalizers. */
  readonly finalize?: boolean;
  /** `scale`: an autoscaling/v1 Scale view of the replicas. */
  readonly scale?: ScaleDeclaration;
  /**
   * The kind's own sub-resources by name (pods/binding, pods/eviction, pods/log...): what
   * discovery and OpenAPI list, and what the router serves. A `view` is served by the generic
   * handlers as status is; any other is served by the store's SubresourceStore of that name.
   */
  readonly more?: Readonly<Record<string, SubresourceDeclaration>>;
}

/**
 * Where a kind keeps its replicas for the Scale view: a built-in workload's spec.replicas,
 * status.replicas and label selector object (`selectorFrom`); a custom kind's paths as its CRD
 * gives them (`.spec.replicas`; the selector at `labelSelectorPath` is already a string).
 */
export interface ScaleDeclaration {
  readonly selectorFrom?: 'spec.selector';
  readonly specReplicasPath?: string;
  readonly statusReplicasPath?: string;
  readonly labelSelectorPath?: string;
}

/** A verb of a sub-resource, as discovery names it. */
export type SubresourceVerb = 'create' | 'delete' | 'get' | 'patch' | 'update';

/** One of a kind's own sub-resources (Subresources.more). */
export interface SubresourceDeclaration {
  /** The kind discovery names for it (the body a create takes, or what a get returns). */
  readonly kind: string;
  /** The group and version of `kind` when they are not the resource's own (pods/eviction: policy/v1). */
  readonly kindGroupVersion?: { readonly group: string; readonly version: string };
  readonly verbs: readonly SubresourceVerb[];
  /** Whether a path may follow the sub-resource's name (`pods/x/proxy/some/path`). */
  readonly takesPath?: boolean;
  /**
   * The body a create takes: every apiVersion accepted (the first is the default) and the fields
   * it is decoded against (unknown fields per `fieldValidation`, types as for any object).
   */
  readonly body?: { readonly apiVersions: readonly string[]; readonly fields: Readonly<Record<string, FieldSchema>> };
  /** Set when the sub-resource is a view of the object itself whose writes change only part of it. */
  readonly view?: SubresourceView;
}

/** How a write through a view sub-resource (pods/ephemeralcontainers) changes the stored object. */
export interface SubresourceView {
  /** The object to store: a copy of `old` with what the sub-resource writes taken from `input`. */
  merge(input: KObject, old: KObject): KObject;
  /** Replaces the kind's validateUpdate for writes through the view (validate still runs). */
  validateUpdate(obj: KObject, old: KObject): FieldError[];
}

/**
 * The one declaration of a resource, from which routing, discovery, OpenAPI, tables and
 * validation derive. `group` is the base name: `apps`, `events` (qualified with the domain when
 * `groupQualified`), or '' for core.
 */
export interface ResourceDeclaration {
  readonly group: string;
  readonly groupQualified?: boolean;
  readonly version: string;
  readonly kind: string;
  /** The kind of its lists, when not `<kind>List` (a custom kind's `listKind`). */
  readonly listKind?: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly namespaced: boolean;
  /** Which name rule applies to `metadata.name`. */
  readonly nameRule: 'subdomain' | 'label' | 'path-segment';
  readonly description: string;
  /** Top-level fields other than apiVersion, kind and metadata. */
  readonly fields: Readonly<Record<string, FieldSchema>>;
  readonly required?: readonly string[];
  readonly subresources?: Subresources;
  /** Whether `metadata.generation` counts spec changes. */
  readonly tracksGeneration?: boolean;
  readonly printerColumns?: readonly PrinterColumn[];
  /**
   * The kind's own field label conversion (kube-apiserver's `AddFieldLabelConversionFunc` for it):
   * every label it takes, metadata.name included, each with the value an object has for it (as the
   * kind's field set renders it: booleans "true"/"false", an absent field ""). Other labels are a 400
   * "field label not supported: <label>". Absent: apimachinery's default conversion (metadata.name
   * and metadata.namespace only, any other label refused with its own message).
   */
  readonly fieldSelectors?: Readonly<Record<string, (obj: KObject) => string>>;
  readonly strategy: Strategy;
  /**
   * Set when another declaration's collection holds this resource's objects (one kind served at
   * two versions, such as core/v1 and events.k8s.io/v1 Events): that declaration, whose keys the
   * objects live under, and the conversion of an object to its stored form and back.
   */
  readonly storedAs?: StoredForm;
  /** A custom resource (not built in): treated as unstructured data, refuses strategic merge patch. */
  readonly custom?: boolean;
  /** Top-level fields the declaration does not list are kept (a custom kind whose schema root says `x-kubernetes-preserve-unknown-fields`). */
  readonly preserveUnknownFields?: boolean;
  /**
   * Creates in a missing or terminating namespace are answered anyway: the kind stores nothing
   * there (LocalSubjectAccessReview), which kube-apiserver's NamespaceLifecycle plugin exempts.
   */
  readonly ignoresNamespaceLifecycle?: boolean;
  /**
   * The verbs the resource serves, as discovery lists them (absent: all eight). Requests with
   * another verb answer 405, as kube-apiserver does for a storage without that capability.
   */
  readonly verbs?: readonly ResourceVerb[];
  /**
   * The release (`1.19`) since which the kind is deprecated: every request to it carries the
   * warning `<apiVersion> <Kind> is deprecated in v<release>+`, as kube-apiserver sends for types
   * marked `prerelease-lifecycle-gen:deprecated`.
   */
  readonly deprecatedSince?: string;
  /** The release (`1.29`) that no longer serves the version (`prerelease-lifecycle-gen:removed`): the warning says `unavailable in v<release>+`. */
  readonly removedIn?: string;
  /** What replaces it (`prerelease-lifecycle-gen:replacement`), in the same group: the warning ends `; use <group>/<version> <kind>`. */
  readonly replacement?: { readonly version: string; readonly kind: string };
  /** The warning every request to a deprecated custom version carries (its CRD's `deprecationWarning`, or kube's default text). */
  readonly deprecationWarning?: string;
  /**
   * False for a group version kube-apiserver 1.28 leaves off until `--runtime-config` turns it on
   * (alpha versions, and betas introduced after 1.22). Absent: served by default.
   */
  readonly servedByDefault?: boolean;
  /** The feature gate (`--feature-gates`) that must be on for the resource to be served at all. */
  readonly featureGate?: string;
}

/** A verb of a resource collection or object, as discovery names it. */
export type ResourceVerb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/** How a resource's objects are kept in another declaration's collection. */
export interface StoredForm {
  readonly decl: ResourceDeclaration;
  /** The stored form of a served object (the argument is not changed; the result may share its parts, and is only serialized). */
  toStored(obj: KObject): KObject;
  /** The served form of a stored object, which the caller owns (freshly decoded): it may be changed and returned. */
  fromStored(obj: KObject): KObject;
}
