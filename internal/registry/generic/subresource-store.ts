import type { KObject } from '../schema/declaration.ts';

/** One request to a kind's own sub-resource, as the registry sees it (no HTTP). */
export interface SubresourceCall {
  readonly namespace: string | undefined;
  /** The object the path names (`pods/{name}/binding`). */
  readonly name: string;
  /** What follows the sub-resource's name in the path (`proxy/a/b`: `a/b`), '' when nothing does. */
  readonly path: string;
  /** The request's query parameters (pods/log's `container`, for one). */
  readonly query: URLSearchParams;
  readonly dryRun: boolean;
  readonly fieldManager: string;
}

/** What a sub-resource's create answers: an object (often a Status) and its HTTP code. */
export interface SubresourceReply {
  readonly code: number;
  readonly object: Record<string, unknown>;
  /** Non-fatal messages sent as `Warning` headers (serviceaccounts/token's shortened lifetime). */
  readonly warnings?: readonly string[];
}

/**
 * The behaviour of one of a kind's own sub-resources (declared in its Subresources.more), as
 * kube-apiserver's rest.NamedCreater and rest.Connecter storages: each method is a capability the
 * router calls for the verbs the declaration lists. Methods throw only StatusError.
 */
export interface SubresourceStore {
  /** POST of a body (pods/binding, pods/eviction), already decoded against the declared body. */
  create?(call: SubresourceCall, body: KObject): Promise<SubresourceReply>;
  /**
   * Any verb of a connecting sub-resource (pods/log, exec, attach, portforward, proxy): what a
   * node agent would serve. Answers the reply, or throws the StatusError saying why it cannot.
   */
  connect?(call: SubresourceCall, verb: string): Promise<SubresourceReply>;
}

/** The Status of a success, as sub-resources that act (binding, eviction) answer it. */
export function successStatus(code: number): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
}
