// The ServiceAccount's own sub-resource `token` (TokenRequest): its declaration, as kube-apiserver
// 1.28 lists it in /api/v1 (kind TokenRequest of authentication.k8s.io/v1, verb create), and its
// behaviour on the serviceaccounts store.
import { GenericStore } from '../../generic/store.ts';
import type { SubresourceStore } from '../../generic/subresource-store.ts';
import { builtinFields } from '../../schema/builtin-schemas.ts';
import type { SubresourceDeclaration } from '../../schema/declaration.ts';
import { pods } from '../pods.ts';
import { secrets } from '../secrets.ts';
import type { ServiceAccountTokens } from './service-account-tokens.ts';
import { requestToken, tokenRequestApiVersion, tokenRequestGroup, type TokenRequestStores } from './token-request.ts';

/** serviceaccounts/token: POST of a TokenRequest. */
export const tokenSubresource: SubresourceDeclaration = {
  kind: 'TokenRequest',
  kindGroupVersion: { group: tokenRequestGroup, version: 'v1' },
  verbs: ['create'],
  body: { apiVersions: [tokenRequestApiVersion], fields: builtinFields('io.k8s.api.authentication.v1.TokenRequest') },
};

/** A core/v1 store over the ServiceAccounts' storage, for the objects a token binds to. */
function coreStore(serviceAccounts: GenericStore, decl: typeof pods): GenericStore {
  return new GenericStore(serviceAccounts.storage, { decl, group: '', version: 'v1', apiVersion: 'v1' });
}

/** The behaviour of the ServiceAccount's sub-resources on its store; `tokens` is the server's token issuer. */
export function serviceAccountSubresourceStores(serviceAccounts: GenericStore, tokens: ServiceAccountTokens | undefined): Record<string, SubresourceStore> {
  let stores: TokenRequestStores | undefined;
  return {
    token: {
      create(call, body) {
        stores ??= { serviceAccounts, pods: coreStore(serviceAccounts, pods), secrets: coreStore(serviceAccounts, secrets) };
        return requestToken(stores, tokens, { namespace: call.namespace, name: call.name }, body);
      },
    },
  };
}
