// How the service-account authenticators of internal/authn read ServiceAccounts, Pods and Secrets:
// through the registry's stores, which the API server builds after the authenticator (the server
// needs the authenticator's CAs to listen). Reads are local first and confirmed by a consistent
// read when the object seems missing, as kube's getter tries its informer cache and then the store.
import type { ObjectIdentity, SecretIdentity, ServiceAccountObjectGetter } from '../authn/index.ts';
import { StatusError } from '../registry/errors/status-error.ts';
import type { GenericStore } from '../registry/generic/store.ts';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import type { KObject } from '../registry/schema/declaration.ts';

/** The registry and stores of a running API server. */
export interface ServedStores {
  readonly registry: ResourceRegistry;
  readonly stores: ReadonlyMap<ServedResource, GenericStore>;
}

/**
 * A core/v1 object, read locally first and confirmed by a consistent read when missing (unless
 * `localOnly`: this replica's copy alone, as an informer's cache answers); undefined when it does not exist.
 */
export async function getObject(served: ServedStores | undefined, plural: string, namespace: string, name: string, localOnly = false): Promise<KObject | undefined> {
  if (served === undefined) throw new Error('the API server is not started yet');
  const resource = served.registry.find('', 'v1', plural);
  const store = resource && served.stores.get(resource);
  if (store === undefined) throw new Error(`assert: no store for ${plural}`);
  for (const resourceVersion of localOnly ? ['0'] : ['0', undefined]) {
    try {
      return await store.get(namespace, name, resourceVersion);
    } catch (error) {
      if (!(error instanceof StatusError && error.code === 404)) throw error;
    }
  }
  return undefined;
}

function identityOf(object: KObject): ObjectIdentity {
  const metadata = (object['metadata'] ?? {}) as { uid?: unknown; deletionTimestamp?: unknown };
  const uid = typeof metadata.uid === 'string' ? metadata.uid : '';
  return typeof metadata.deletionTimestamp === 'string' ? { uid, deletionTimestamp: metadata.deletionTimestamp } : { uid };
}

function secretIdentityOf(object: KObject): SecretIdentity {
  const data = object['data'] as Record<string, unknown> | undefined;
  const token = data?.['token'];
  const identity = identityOf(object);
  return typeof token === 'string' ? { ...identity, token: Buffer.from(token, 'base64').toString('utf8') } : identity;
}

/**
 * A getter over the stores `served()` gives once the API server is up; until then every read
 * rejects (a token that needs one is refused: 401, never a guess).
 */
export function storeObjectGetter(served: () => ServedStores | undefined): ServiceAccountObjectGetter {
  return {
    async getServiceAccount(namespace, name) {
      const object = await getObject(served(), 'serviceaccounts', namespace, name);
      return object && identityOf(object);
    },
    async getPod(namespace, name) {
      const object = await getObject(served(), 'pods', namespace, name);
      return object && identityOf(object);
    },
    async getSecret(namespace, name) {
      const object = await getObject(served(), 'secrets', namespace, name);
      return object && secretIdentityOf(object);
    },
  };
}
