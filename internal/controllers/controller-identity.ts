// The identity each controller acts as, and the stores it acts through under that identity: as
// kube-controller-manager with --use-service-account-credentials, a controller is the service
// account kube-system:<name> and RBAC grants it what the bootstrap role system:controller:<name>
// holds, while its lists and watches (kube's shared informers) are kube-controller-manager's own
// (user system:kube-controller-manager). Every read and write a controller makes is authorized
// first (a refusal is kube's 403, which fails the controller's pass; it retries), and writes carry
// the identity so that the stores' own checks (RBAC escalation prevention) judge the controller.
// With audit on, each of these reads and writes is audited as kube-apiserver audits the
// controller's HTTP request (internal/audit/internal-request-audit.ts), refusals included; the
// api-server's own controllers act through unauthorized views audited as system:apiserver.
import type { UserInfo } from '../authn/user-info.ts';
import type { Auditor } from '../audit/auditor.ts';
import { InternalRequestAudit, type InternalRequest } from '../audit/internal-request-audit.ts';
import type { Authorizer, Decision } from '../authz/authorizer.ts';
import { forbiddenMessage, newForbidden } from '../authz/forbidden.ts';
import { resourceAttributes } from '../authz/request-attributes.ts';
import type { GenericStore, ListQuery, WriteOptions, WriteResult } from '../registry/generic/store.ts';
import { startWatch, type ApiWatch, type ApiWatchEvent, type WatchQuery } from '../registry/generic/watch.ts';
import type { KObject } from '../registry/schema/declaration.ts';
import type { ServedResource } from '../registry/resource-registry.ts';

/** The namespace of the controllers' service accounts. */
export const controllerNamespace = 'kube-system';

/** kube-controller-manager's own user (bound to ClusterRole system:kube-controller-manager): its informers and the controllers that run as it. */
export const controllerManagerUser: UserInfo = { username: 'system:kube-controller-manager', uid: '', groups: ['system:authenticated'], extra: {} };

/** The user of the service account `kube-system:<name>`, as its token would authenticate. */
export function controllerUser(serviceAccount: string): UserInfo {
  return {
    username: `system:serviceaccount:${controllerNamespace}:${serviceAccount}`,
    uid: '',
    groups: ['system:serviceaccounts', `system:serviceaccounts:${controllerNamespace}`, 'system:authenticated'],
    extra: {},
  };
}


/** kube-apiserver's loopback user (group system:masters): the server's own reads and writes. */
export const apiServerUser: UserInfo = { username: 'system:apiserver', uid: '', groups: ['system:masters', 'system:authenticated'], extra: {} };

/** The component kube-controller-manager's shared informers name in their user agent. */
const informerComponent = 'shared-informers';

/** What a store view audits its actions with (absent: audit is off and costs nothing). */
export interface ControllerAudit {
  readonly auditor: Auditor;
  /** The controller's name, at the end of the user agent. */
  readonly component: string;
}

/** An unauthorized view (the server's own authority) allows as kube's system:masters does: no reason. */
const privileged: Decision = { decision: 'allow', reason: '' };

/** Authorizes one action of `user` on `store`'s resource (allowed when `authorizer` is absent); throws kube's 403 when refused. */
async function authorize(authorizer: Authorizer | undefined, user: UserInfo, store: GenericStore, verb: string, namespace: string | undefined, name: string, subresource: string, audit: InternalRequestAudit | undefined): Promise<void> {
  if (authorizer === undefined) return audit?.authorized(privileged);
  const attributes = resourceAttributes(user, {
    verb, apiGroup: store.gr.group, apiVersion: store.served.version, resource: store.gr.resource,
    ...(namespace === undefined ? {} : { namespace }), ...(subresource === '' ? {} : { subresource }), ...(name === '' ? {} : { name }),
  });
  const decision = await authorizer.authorize(attributes);
  audit?.authorized(decision);
  if (decision.decision !== 'allow') throw newForbidden({ group: store.gr.group, resource: store.gr.resource, name }, forbiddenMessage(attributes));
}

/** One action of a store view: what it is, for the authorizer and the audit. */
interface Act<T> {
  readonly verb: string;
  readonly user: UserInfo;
  readonly component: string;
  readonly namespace: string | undefined;
  readonly name?: string;
  readonly subresource?: string;
  readonly query?: ListQuery | InternalRequest['query'];
  /** The object sent (create, update). */
  readonly body?: unknown;
  /** The answer's code and body, as the HTTP handler gives them. */
  readonly answer: (result: T) => readonly [number, unknown];
  /** A long-running result (a watch): its audit goes on past `work` (ResponseStarted now, ResponseComplete when `follow`'s result ends). */
  readonly follow?: (result: T, audited: InternalRequestAudit) => T;
}

/** Authorizes and does `work`, audited as kube-apiserver audits the client's request when `audit` is set. */
async function act<T>(authorizer: Authorizer | undefined, store: GenericStore, audit: Omit<ControllerAudit, 'component'> | undefined, a: Act<T>, work: () => Promise<T>): Promise<T> {
  const { verb, user, namespace, name = '', subresource = '' } = a;
  if (audit === undefined) {
    await authorize(authorizer, user, store, verb, namespace, name, subresource, undefined);
    return work();
  }
  const objectRef = { group: store.gr.group, version: store.served.version, resource: store.gr.resource, subresource, ...(namespace === undefined ? {} : { namespace }), name };
  // countRemaining is orch's own, not a query parameter a request could carry.
  const query = a.query === undefined ? undefined : (({ countRemaining: _internal, ...parameters }) => parameters)(a.query);
  const audited = InternalRequestAudit.begin(audit.auditor, { user, verb, objectRef, component: a.component, ...(query === undefined ? {} : { query }) });
  try {
    await authorize(authorizer, user, store, verb, namespace, name, subresource, audited);
    if (a.body !== undefined) audited?.requestObject(a.body);
    const result = await work();
    if (a.follow !== undefined && audited !== undefined) {
      audited.streamStarted();
      return a.follow(result, audited);
    }
    const [code, body] = a.answer(result);
    audited?.succeeded(code, body);
    return result;
  } catch (err) {
    audited?.failed(err);
    throw err;
  }
}

const ok = <T>(result: T): readonly [number, unknown] => [200, result];
const written = (result: WriteResult): readonly [number, unknown] => [result.created ? 201 : 200, result.object];
/** 202 while the object waits for its finalizers, as the DELETE handler answers. */
const deleted = (obj: KObject): readonly [number, unknown] => [obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).length > 0 ? 202 : 200, obj];

/** One write a controller made (for the log at --v=2: what it did, never the object's data). */
export interface ControllerAction {
  readonly verb: 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly dryRun?: boolean;
}

/** Tells `onAction` of a write that succeeded, and hands its result on. */
function reported<T>(onAction: ((action: ControllerAction) => void) | undefined, store: GenericStore, action: Omit<ControllerAction, 'group' | 'resource'>, result: T): T {
  if (onAction !== undefined) {
    const name = action.name ?? nameOf(result);
    onAction({ ...action, group: store.gr.group, resource: store.gr.resource, ...(name === undefined ? {} : { name }) });
  }
  return result;
}

function nameOf(result: unknown): string | undefined {
  const object = (result as { object?: { metadata?: { name?: unknown } } } | null)?.object;
  const name = object?.metadata?.name;
  return typeof name === 'string' ? name : undefined;
}

const watchCheck = Symbol('authorizeWatch');
const watchStart = Symbol('startWatch');
const otherWrite = Symbol('otherWrite');

/** A write that goes round the store's verbs (a registry helper on its storage), as the request kube's controller sends for it. */
export interface OtherWrite<T> {
  readonly verb: 'update' | 'patch';
  readonly namespace?: string;
  readonly name: string;
  readonly subresource?: string;
  /** The answer's code and body. */
  readonly answer: (result: T) => readonly [number, unknown];
}

/** A store as one controller sees it. */
type AuthorizedStore = GenericStore & {
  [watchCheck]?: (namespace: string | undefined) => Promise<void>;
  [watchStart]?: (namespace: string | undefined, query: WatchQuery) => Promise<ApiWatch>;
  [otherWrite]?: <T>(write: OtherWrite<T>, work: () => Promise<T>) => Promise<T>;
};

/** `watch` ending its audit (ResponseComplete) when it is stopped or its events end. */
function auditedWatch(watch: ApiWatch, audited: InternalRequestAudit): ApiWatch {
  async function* events(): AsyncGenerator<ApiWatchEvent> {
    try {
      yield* watch.events;
    } finally {
      audited.ended();
    }
  }
  return {
    events: events(),
    stop: () => {
      watch.stop();
      audited.ended();
    },
    requestBookmark: () => watch.requestBookmark(),
    givenUp: watch.givenUp,
  };
}

/**
 * `store` acting as `user`, its lists and watches as `informer`: each authorized first (not when
 * `authorizer` is absent: the server's own authority) and audited when `audit` is set. The object
 * is a view of the same store (same storage, declaration and hooks); only the verbs' entry points
 * are wrapped. Writes carry `user` only when it is authorized.
 */
export function authorizedStore(store: GenericStore, authorizer: Authorizer | undefined, user: UserInfo, informer: UserInfo = controllerManagerUser, onAction?: (action: ControllerAction) => void, audit?: ControllerAudit): GenericStore {
  const as = (opts: WriteOptions): WriteOptions => (authorizer === undefined ? opts : { ...opts, user });
  const scope = (namespace: string | undefined, subresource: string | undefined, dryRun: boolean | undefined) => ({
    ...(namespace === undefined ? {} : { namespace }), ...(subresource === undefined || subresource === '' ? {} : { subresource }), ...(dryRun === true ? { dryRun } : {}),
  });
  const component = audit?.component ?? '';
  const own = { user, component };
  const run = <T>(a: Act<T>, work: () => Promise<T>): Promise<T> => act(authorizer, store, audit, a, work);
  const wrapped: Partial<AuthorizedStore> = {
    get: (namespace, name, resourceVersion) => run({ ...own, verb: 'get', namespace, name, answer: ok }, () => store.get(namespace, name, resourceVersion)),
    list: (namespace, query) => run({ user: informer, component: informerComponent, verb: 'list', namespace, query, answer: ok }, () => store.list(namespace, query)),
    create: async (namespace, input, opts) => {
      const result = await run({ ...own, verb: 'create', namespace, ...(opts.subresource === undefined ? {} : { subresource: opts.subresource }), body: input, answer: written }, () => store.create(namespace, input, as(opts)));
      return reported(onAction, store, { verb: 'create', ...scope(namespace, opts.subresource, opts.dryRun) }, result);
    },
    update: async (namespace, name, input, opts) => {
      const result = await run({ ...own, verb: 'update', namespace, name, ...(opts.subresource === undefined ? {} : { subresource: opts.subresource }), body: input, answer: written }, () => store.update(namespace, name, input, as(opts)));
      return reported(onAction, store, { verb: 'update', name, ...scope(namespace, opts.subresource, opts.dryRun) }, result);
    },
    patch: async (namespace, name, apply, opts) => {
      const result = await run({ ...own, verb: 'patch', namespace, name, ...(opts.subresource === undefined ? {} : { subresource: opts.subresource }), answer: written }, () => store.patch(namespace, name, apply, as(opts)));
      return reported(onAction, store, { verb: 'patch', name, ...scope(namespace, opts.subresource, opts.dryRun) }, result);
    },
    delete: async (namespace, name, opts) => {
      const result = await run({ ...own, verb: 'delete', namespace, name, answer: deleted }, () => store.delete(namespace, name, opts));
      return reported(onAction, store, { verb: 'delete', name, ...scope(namespace, undefined, opts.dryRun) }, result);
    },
    deleteCollection: async (namespace, query, opts) => {
      const result = await run({ ...own, verb: 'deletecollection', namespace, query, answer: ok }, () => store.deleteCollection(namespace, query, opts));
      return reported(onAction, store, { verb: 'deletecollection', ...scope(namespace, undefined, opts.dryRun) }, result);
    },
    [watchCheck]: (namespace) => authorize(authorizer, informer, store, 'watch', namespace, '', '', undefined),
    [otherWrite]: async <T>(write: OtherWrite<T>, work: () => Promise<T>): Promise<T> => {
      const { verb, namespace, name, subresource } = write;
      const result = await run({ ...own, verb, namespace, name, ...(subresource === undefined ? {} : { subresource }), answer: write.answer }, work);
      return reported(onAction, store, { verb, name, ...scope(namespace, subresource, undefined) }, result);
    },
    // A watch is long-running: RequestReceived, ResponseStarted once it runs, ResponseComplete when it ends.
    [watchStart]: (namespace, query) => {
      const { allowWatchBookmarks, sendInitialEvents, ...rest } = query;
      const uriQuery = { ...(allowWatchBookmarks === undefined ? {} : { allowWatchBookmarks: String(allowWatchBookmarks) }), ...rest, ...(sendInitialEvents === undefined ? {} : { sendInitialEvents: String(sendInitialEvents) }) };
      return run({ user: informer, component: informerComponent, verb: 'watch', namespace, query: uriQuery, answer: ok, follow: auditedWatch }, () => startWatch(store, namespace, query));
    },
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (Object.hasOwn(wrapped, property)) return wrapped[property as keyof typeof wrapped];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Starts a watch on `store`: authorized and audited when it is a controller's view (the server's
 * own stores need neither).
 */
export function startControllerWatch(store: GenericStore, namespace: string | undefined, query: WatchQuery): Promise<ApiWatch> {
  const start = (store as AuthorizedStore)[watchStart];
  return start === undefined ? startWatch(store, namespace, query) : start(namespace, query);
}

/**
 * Does `work`, a write on `store`'s objects that does not go through its verbs, authorized and
 * audited as `write` when `store` is a controller's view (the server's own stores: just `work`).
 */
export function controllerWrite<T>(store: GenericStore, write: OtherWrite<T>, work: () => Promise<T>): Promise<T> {
  const hook = (store as AuthorizedStore)[otherWrite];
  return hook === undefined ? work() : hook(write, work);
}

/** Authorizes a watch on `store` when it is a controller's view (the server's own stores need none). */
export async function authorizeWatch(store: GenericStore, namespace: string | undefined): Promise<void> {
  await (store as AuthorizedStore)[watchCheck]?.(namespace);
}

/**
 * The stores as the API server's own code writes them (its bootstrap objects): audited as kube's
 * loopback client, system:apiserver, naming `component` in the user agent; `stores` themselves
 * when audit is off.
 */
export function apiServerStores(stores: ReadonlyMap<ServedResource, GenericStore>, auditor: Auditor | undefined, component: string): ReadonlyMap<ServedResource, GenericStore> {
  return auditor === undefined ? stores : authorizedStores(stores, undefined, apiServerUser, undefined, { auditor, component }, apiServerUser);
}

/**
 * Every store as `user` sees it: a live view of `stores`, which custom resources join and leave
 * while the server runs; each store is wrapped once, when first looked at.
 */
export function authorizedStores(
  stores: ReadonlyMap<ServedResource, GenericStore>,
  authorizer: Authorizer | undefined,
  user: UserInfo,
  onAction?: (action: ControllerAction) => void,
  audit?: ControllerAudit,
  informer: UserInfo = controllerManagerUser,
): ReadonlyMap<ServedResource, GenericStore> {
  const wrapped = new WeakMap<GenericStore, GenericStore>();
  const view = (store: GenericStore): GenericStore => {
    let out = wrapped.get(store);
    if (out === undefined) wrapped.set(store, (out = authorizedStore(store, authorizer, user, informer, onAction, audit)));
    return out;
  };
  // Iteration walks a snapshot of the stores of the moment.
  const current = (): Map<ServedResource, GenericStore> => new Map([...stores].map(([served, store]) => [served, view(store)] as const));
  const map: ReadonlyMap<ServedResource, GenericStore> = {
    get size() {
      return stores.size;
    },
    get: (served) => {
      const store = stores.get(served);
      return store && view(store);
    },
    has: (served) => stores.has(served),
    forEach(callback, thisArg?: unknown) {
      for (const [served, store] of current()) callback.call(thisArg, store, served, map);
    },
    entries: () => current().entries(),
    keys: () => stores.keys(),
    values: () => current().values(),
    [Symbol.iterator]: () => current()[Symbol.iterator](),
  };
  return map;
}
