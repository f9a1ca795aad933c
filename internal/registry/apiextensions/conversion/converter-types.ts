// The converter's interface and what it is given.

/** An address to dial for a webhook's service. */
export interface DialAddress {
  readonly host: string;
  readonly port: number;
}

/** What a converter needs from the server; every field is optional. */
export interface ConverterDeps {
  /**
   * Where a webhook's `clientConfig.service` is reached (its endpoint); may reject with an Error in
   * kube's words. Absent: the service's DNS name `<name>.<namespace>.svc` is dialled.
   */
  readonly resolveService?: (namespace: string, name: string, port: number) => DialAddress | Promise<DialAddress>;
  /** Slow webhook calls are reported here. */
  readonly log?: (message: string, err?: unknown) => void;
  /** The API domain of the apiextensions group (`k8s.io`). */
  readonly apiDomain?: string;
  /** The webhook call's deadline (kube: 30 s). */
  readonly timeoutMs?: number;
}

/** Options of one conversion. */
export interface ConvertOptions {
  /**
   * Set when the objects are a list's items: the list's apiVersion and kind, which kube names in
   * its messages (with item indexes). Absent: one object is converted as itself, several as a list
   * of `<Kind>List` at the first object's apiVersion.
   */
  readonly list?: { readonly apiVersion: string; readonly kind: string };
}

/** Converts a CRD's objects between its versions. */
export interface Converter {
  /**
   * Returns `objects` at `toApiVersion`, in order: those already there are returned as they are
   * (the same references, never sent to a webhook); the others are new objects (the input is not
   * changed). Rejects with a ConversionError (HTTP 500) in kube's words.
   */
  convert(objects: readonly Record<string, unknown>[], toApiVersion: string, options?: ConvertOptions): Promise<Record<string, unknown>[]>;
}

/** One conversion as the strategies see it. */
export interface ConversionInput {
  readonly objects: readonly Record<string, unknown>[];
  /** Whether kube would see a list (its messages then name item indexes). */
  readonly list: boolean;
  /** The converted thing's GroupVersionKind as kube prints it (`stable.example.com/v1, Kind=CronTab`). */
  readonly shown: string;
}
