// Builds the service-account side from its flags: the legacy and bound token authenticators and
// the TokenRequest issuer.
import type { KeyObject } from 'node:crypto';
import type { TokenAuthenticator } from '../authenticator.ts';
import { keyIdFromPublicKey, parsePrivateKeyPem, parsePublicKeysPem } from '../jwt/pem-keys.ts';
import type { ServiceAccountOptions } from '../options.ts';
import { readConfigurationFile } from './read-configuration-file.ts';
import { boundValidator } from '../serviceaccount/bound-validator.ts';
import { legacyValidator } from '../serviceaccount/legacy-validator.ts';
import { legacyIssuer } from '../serviceaccount/names.ts';
import type { ServiceAccountObjectGetter } from '../serviceaccount/object-getter.ts';
import { serviceAccountTokenAuthenticator } from '../serviceaccount/token-authenticator.ts';
import { TokenIssuer } from '../serviceaccount/token-issuer.ts';

/** What the service-account side gives the rest. */
export interface ServiceAccountAuthentication {
  readonly tokenAuthenticators: TokenAuthenticator[];
  readonly tokenIssuer?: TokenIssuer;
}

async function readVerificationKeys(files: readonly string[]): Promise<KeyObject[]> {
  const keys: KeyObject[] = [];
  for (const file of files) keys.push(...parsePublicKeysPem(await readConfigurationFile(file, '--service-account-key-file'), file));
  return keys;
}

/**
 * Builds from the flags. Throws when they do not fit together: issuers without keys, a signing
 * key without an issuer, or a signing key whose public half is not among the verification keys
 * (its tokens would never authenticate; kube does not check this, we refuse it out loud).
 */
export async function buildServiceAccountAuthentication(
  options: ServiceAccountOptions,
  apiAudiences: readonly string[],
  getter: ServiceAccountObjectGetter | undefined,
  clock: () => number,
  onLegacyTokenUsed?: (namespace: string, secretName: string) => void,
): Promise<ServiceAccountAuthentication> {
  const keys = await readVerificationKeys(options.keyFiles);
  const tokenAuthenticators: TokenAuthenticator[] = [];
  if (options.issuers.length > 0 && keys.length === 0) throw new Error('--service-account-key-file is required with --service-account-issuer');
  if (keys.length > 0) {
    const validator = legacyValidator({ lookup: options.lookup, clock, ...(getter === undefined ? {} : { getter }), ...(onLegacyTokenUsed === undefined ? {} : { onLegacyTokenUsed }) });
    tokenAuthenticators.push(serviceAccountTokenAuthenticator({ issuers: [legacyIssuer], keys, implicitAudiences: apiAudiences, validator }));
  }
  if (options.issuers.length > 0) {
    if (getter === undefined) throw new Error('bound service-account tokens need an object getter');
    const validator = boundValidator({ getter, clock });
    tokenAuthenticators.push(serviceAccountTokenAuthenticator({ issuers: options.issuers, keys, implicitAudiences: apiAudiences, validator }));
  }
  if (options.signingKeyFile === undefined) return { tokenAuthenticators };
  const issuer = options.issuers[0];
  if (issuer === undefined) throw new Error('--service-account-issuer is required with --service-account-signing-key-file');
  const signingKey = parsePrivateKeyPem(await readConfigurationFile(options.signingKeyFile, '--service-account-signing-key-file'), options.signingKeyFile);
  const signingKeyId = keyIdFromPublicKey(signingKey);
  if (!keys.some((k) => keyIdFromPublicKey(k) === signingKeyId)) throw new Error('--service-account-signing-key-file: its public key is not in any --service-account-key-file');
  const tokenIssuer = new TokenIssuer({
    signingKey,
    issuer,
    apiAudiences,
    extendExpiration: options.extendTokenExpiration,
    clock,
    ...(options.maxTokenExpirationSeconds === undefined ? {} : { maxExpirationSeconds: options.maxTokenExpirationSeconds }),
  });
  return { tokenAuthenticators, tokenIssuer };
}
