// The identity each controller acts as, and the stores it acts through under that identity: as
// kube-controller-manager with --use-service-account-credentials, a controller is the service
// account kube-system:<name> and RBAC grants it what the bootstrap role system:controller:<name>
// holds, while its lists and watches (kube's shared informers) are kube-controller-manager's own
// (user system:kube-controller-manager). Every read and write a controller makes is authorized
// first (a refusal is kube's 403, which fails the controller's pass; it retries), and writes carry
// the identity so that the stores' own checks (RBAC escalation prevention) judge the controller.
import type { UserInfo } from '../authn/user-info.ts';
import type { Authorizer } from '../authz/authorizer.ts';
import { forbiddenMessage, newForbidden } from '../authz/forbidden.ts';
import { resourceAttributes } from '../authz/request-attributes.ts';
import type { GenericStore, WriteOptions } from '../registry/generic/store.ts';
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


/** Authorizes one action of `user` on `store`'s resource; throws kube's 403 when refused. */
async function authorize(authorizer: Authorizer, user: UserInfo, store: GenericStore, verb: string, namespace: string | undefined, name = '', subresource = ''): Promise<void> {
  const attributes = resourceAttributes(user, {
    verb, apiGroup: store.gr.group, apiVersion: store.served.version, resource: store.gr.resource,
    ...(namespace === undefined ? {} : { namespace }), ...(subresource === '' ? {} : { subresource }), ...(name === '' ? {} : { name }),
  });
  const decision = await authorizer.authorize(attributes);
  if (decision.decision !== 'allow') throw newForbidden({ group: store.gr.group, resource: store.gr.resource, name }, forbiddenMessage(attributes));
}

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

/** A store as one controller sees it. */
type AuthorizedStore = GenericStore & { [watchCheck]?: (namespace: string | undefined) => Promise<void> };

/**
 * `store` acting as `user`, its lists and watches as `informer`: each authorized first. The object
 * is a view of the same store (same storage, declaration and hooks); only the verbs' entry points
 * are wrapped.
 */
export function authorizedStore(store: GenericStore, authorizer: Authorizer, user: UserInfo, informer: UserInfo = controllerManagerUser, onAction?: (action: ControllerAction) => void): GenericStore {
  const as = (opts: WriteOptions): WriteOptions => ({ ...opts, user });
  const scope = (namespace: string | undefined, subresource: string | undefined, dryRun: boolean | undefined) => ({
    ...(namespace === undefined ? {} : { namespace }), ...(subresource === undefined || subresource === '' ? {} : { subresource }), ...(dryRun === true ? { dryRun } : {}),
  });
  const wrapped: Partial<AuthorizedStore> = {
    get: async (namespace, name, resourceVersion) => {
      await authorize(authorizer, user, store, 'get', namespace, name);
      return store.get(namespace, name, resourceVersion);
    },
    list: async (namespace, query) => {
      await authorize(authorizer, informer, store, 'list', namespace);
      return store.list(namespace, query);
    },
    create: async (namespace, input, opts) => {
      await authorize(authorizer, user, store, 'create', namespace, '', opts.subresource ?? '');
      return reported(onAction, store, { verb: 'create', ...scope(namespace, opts.subresource, opts.dryRun) }, await store.create(namespace, input, as(opts)));
    },
    update: async (namespace, name, input, opts) => {
      await authorize(authorizer, user, store, 'update', namespace, name, opts.subresource ?? '');
      return reported(onAction, store, { verb: 'update', name, ...scope(namespace, opts.subresource, opts.dryRun) }, await store.update(namespace, name, input, as(opts)));
    },
    patch: async (namespace, name, apply, opts) => {
      await authorize(authorizer, user, store, 'patch', namespace, name, opts.subresource ?? '');
      return reported(onAction, store, { verb: 'patch', name, ...scope(namespace, opts.subresource, opts.dryRun) }, await store.patch(namespace, name, apply, as(opts)));
    },
    delete: async (namespace, name, opts) => {
      await authorize(authorizer, user, store, 'delete', namespace, name);
      return reported(onAction, store, { verb: 'delete', name, ...scope(namespace, undefined, opts.dryRun) }, await store.delete(namespace, name, opts));
    },
    deleteCollection: async (namespace, query, opts) => {
      await authorize(authorizer, user, store, 'deletecollection', namespace);
      return reported(onAction, store, { verb: 'deletecollection', ...scope(namespace, undefined, opts.dryRun) }, await store.deleteCollection(namespace, query, opts));
    },
    [watchCheck]: (namespace) => authorize(authorizer, informer, store, 'watch', namespace),
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (Object.hasOwn(wrapped, property)) return wrapped[property as keyof typeof wrapped];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Authorizes a watch on `store` when it is a controller's view (the server's own stores need none). */
export async function authorizeWatch(store: GenericStore, namespace: string | undefined): Promise<void> {
  await (store as AuthorizedStore)[watchCheck]?.(namespace);
}

/**
 * Every store as `user` sees it: a live view of `stores`, which custom resources join and leave
 * while the server runs; each store is wrapped once, when first looked at.
 */
export function authorizedStores(stores: ReadonlyMap<ServedResource, GenericStore>, authorizer: Authorizer, user: UserInfo, onAction?: (action: ControllerAction) => void): ReadonlyMap<ServedResource, GenericStore> {
  const wrapped = new WeakMap<GenericStore, GenericStore>();
  const view = (store: GenericStore): GenericStore => {
    let out = wrapped.get(store);
    if (out === undefined) wrapped.set(store, (out = authorizedStore(store, authorizer, user, controllerManagerUser, onAction)));
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
