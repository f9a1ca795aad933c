// How the bootstrap token authenticator of internal/authn reads token Secrets: through the
// registry's stores once the API server runs, this replica's copy only, as kube's authenticator
// reads its informer cache. No consistent read when one seems missing: any client may present a
// well-formed token of an id that does not exist, and must not cost the cluster a quorum round.
import { decodeBootstrapTokenSecret } from '../authn/bootstrap/bootstrap-token.ts';
import type { BootstrapTokenSecretGetter } from '../authn/bootstrap/token-authenticator.ts';
import { getObject, type ServedStores } from './service-account-objects.ts';

/** A getter over the stores `served()` gives once the API server is up; until then every read rejects (the token is refused). */
export function storeBootstrapTokenGetter(served: () => ServedStores | undefined): BootstrapTokenSecretGetter {
  return {
    async getSecret(namespace, name) {
      const object = await getObject(served(), 'secrets', namespace, name, true);
      return object && decodeBootstrapTokenSecret(object);
    },
  };
}
