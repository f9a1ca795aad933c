// kube-apiserver's bootstrap token authenticator (--enable-bootstrap-token-auth;
// plugin/pkg/auth/authenticator/token/bootstrap/bootstrap.go, 1.28): a bearer token `<id>.<secret>`
// is `system:bootstrap:<id>` in `system:bootstrappers` (and its valid extra groups) when the
// Secret `bootstrap-token-<id>` of type `bootstrap.kubernetes.io/token` holds that id and secret,
// is not being deleted, has not expired and is marked `usage-bootstrap-authentication: "true"`.
// As kube, a token whose Secret is missing or unfit is "not mine" (the bearer filter then answers
// 401 unless another authenticator takes it); the reason is never logged with the token.
import { timingSafeEqual } from 'node:crypto';
import { authenticated, failed, noOpinion, type TokenAuthenticator } from '../authenticator.ts';
import {
  bootstrapTokenGroups, bootstrapTokenKeys, bootstrapTokenNamespaces, bootstrapTokenSecretPrefix, bootstrapTokenSecretType, bootstrapUserPrefix,
  parseBootstrapToken, tokenExpiration, type BootstrapTokenSecret,
} from './bootstrap-token.ts';

/**
 * Reads a token Secret by namespace and name, injected so the authenticator knows nothing of the
 * registry. Resolves undefined when it does not exist; rejects when the store cannot answer.
 */
export interface BootstrapTokenSecretGetter {
  getSecret(namespace: string, name: string): Promise<BootstrapTokenSecret | undefined>;
}

/** What the authenticator reads with. */
export interface BootstrapTokenAuthenticatorOptions {
  readonly getter: BootstrapTokenSecretGetter;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** Where token Secrets are looked for, first match deciding (default: kube-system, then orch-system). */
  readonly namespaces?: readonly string[];
}

function sameSecret(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  // As Go's subtle.ConstantTimeCompare: only the length may show.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why the Secret does not back this token (for tests; never logged with the token), or undefined when it does. */
export function bootstrapSecretProblem(secret: BootstrapTokenSecret, token: { readonly id: string; readonly secret: string }, nowMs: number): string | undefined {
  if (secret.deletionTimestamp !== undefined) return 'is deleted and awaiting removal';
  if (secret.type !== bootstrapTokenSecretType) return `has invalid type, expected ${bootstrapTokenSecretType}`;
  if (secret.name !== `${bootstrapTokenSecretPrefix}${token.id}`) return 'is not named after the token id';
  if (!sameSecret(secret.data[bootstrapTokenKeys.secret] ?? '', token.secret)) return `has invalid value for key ${bootstrapTokenKeys.secret}`;
  if ((secret.data[bootstrapTokenKeys.id] ?? '') !== token.id) return `has invalid value for key ${bootstrapTokenKeys.id}`;
  if (tokenExpiration(secret, nowMs).expired) return 'has expired';
  if (secret.data[bootstrapTokenKeys.usageAuthentication] !== 'true') return `is not marked ${bootstrapTokenKeys.usageAuthentication}=true`;
  if (bootstrapTokenGroups(secret) === undefined) return `has invalid value for key ${bootstrapTokenKeys.extraGroups}`;
  return undefined;
}

async function findSecret(getter: BootstrapTokenSecretGetter, namespaces: readonly string[], name: string): Promise<BootstrapTokenSecret | undefined> {
  for (const namespace of namespaces) {
    const secret = await getter.getSecret(namespace, name);
    if (secret !== undefined) return secret;
  }
  return undefined;
}

/** The bootstrap token authenticator. */
export function bootstrapTokenAuthenticator(options: BootstrapTokenAuthenticatorOptions): TokenAuthenticator {
  const namespaces = options.namespaces ?? bootstrapTokenNamespaces;
  return {
    name: 'bootstrap-token',
    async authenticateToken(token) {
      const parsed = parseBootstrapToken(token);
      if (parsed === undefined) return noOpinion;
      let secret: BootstrapTokenSecret | undefined;
      try {
        secret = await findSecret(options.getter, namespaces, `${bootstrapTokenSecretPrefix}${parsed.id}`);
      } catch (error) {
        return failed(`bootstrap token ${parsed.id}: secret not readable: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (secret === undefined || bootstrapSecretProblem(secret, parsed, options.clock()) !== undefined) return noOpinion;
      return authenticated({ username: `${bootstrapUserPrefix}${parsed.id}`, uid: '', groups: bootstrapTokenGroups(secret) ?? [], extra: {} });
    },
  };
}
