// A registry over an in-memory store whose TokenRequest and TokenReview use the real
// authentication floor (internal/authn built from flag files, as the wiring builds it), with the
// service-account object getter reading the very same stores.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { buildAuthenticator, defaultAuthenticationOptions } from '../../../../internal/authn/index.ts';
import type { Authentication, AuthenticationOptions } from '../../../../internal/authn/index.ts';
import { hasStatus } from '../../../../internal/registry/errors/status-error.ts';
import { storeObjectGetter } from '../../../../internal/replica/service-account-objects.ts';
import type { GenericStore } from '../../../../internal/registry/generic/store.ts';
import { ResourceRegistry, storeFor, type ServedResource } from '../../../../internal/registry/resource-registry.ts';
import { serviceNetwork } from '../../../../internal/registry/core/service/network.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import type { Storage } from '../../../../internal/storage/storage.ts';
import { openLocalStorage } from '../../../../internal/storage/open-local-storage.ts';

/** The issuer (and so the default audience) of the fixture's tokens. */
export const testIssuer = 'https://orch.test';

/** Flag files: a signing key and its public half. */
export interface KeyFiles {
  readonly dir: string;
  readonly signingKey: string;
  readonly publicKey: string;
}

/** Writes a fresh RSA service-account key pair to a temporary directory (removed after the test). */
export function writeKeyFiles(t: TestContext): KeyFiles {
  const dir = mkdtempSync(path.join(tmpdir(), 'orch-sa-token-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = path.join(dir, 'sa.key');
  const publicKey = path.join(dir, 'sa.pub');
  writeFileSync(signingKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  return { dir, signingKey, publicKey };
}

/** The flags of a server with bound service-account tokens and no caching of results (revocation is seen at once). */
export function tokenOptions(keys: KeyFiles, extra: Partial<AuthenticationOptions['serviceAccounts']> = {}): AuthenticationOptions {
  return {
    ...defaultAuthenticationOptions(),
    serviceAccounts: { keyFiles: [keys.publicKey], issuers: [testIssuer], lookup: true, signingKeyFile: keys.signingKey, extendTokenExpiration: true, ...extra },
    tokenSuccessCacheTtlSeconds: 0,
  };
}

/** A registry whose token resources use `authentication`; stores by core plural or `group/plural`. */
export interface TokenRegistry {
  readonly storage: Storage;
  readonly authentication: Authentication;
  store(plural: string): GenericStore;
}

/** Opens the store and builds the registry and the authentication over it (closed after the test). */
export async function tokenRegistry(t: TestContext, options: AuthenticationOptions, clock?: () => number): Promise<TokenRegistry> {
  const storage = await openLocalStorage({ dataDir: ':memory:' });
  t.after(() => storage.close());
  const registry = new ResourceRegistry('k8s.io');
  const stores = new Map<ServedResource, GenericStore>();
  const store = (key: string): GenericStore => {
    const [group, plural] = key.includes('/') ? key.split('/') : ['', key];
    const found = [...stores.values()].find((s) => s.served.group === group && s.decl.plural === plural);
    if (found === undefined) throw new Error(`no store ${key}`);
    return found;
  };
  // The replica's getter, bound late: the stores need the authentication, the authentication reads the stores.
  const authentication = await buildAuthenticator(options, { serviceAccountGetter: storeObjectGetter(() => ({ registry, stores })), ...(clock ? { clock } : {}) });
  const deps = { serviceNetwork: serviceNetwork(), log: () => undefined, serviceAccountTokens: authentication };
  for (const r of registry.resources) stores.set(r, storeFor(storage, r, deps));
  return { storage, authentication, store };
}

/** Creates namespace `ns` and a ServiceAccount in it; answers the ServiceAccount. */
export async function serviceAccount(r: TokenRegistry, ns: string, name: string): Promise<KObject> {
  await r.store('namespaces').create(undefined, { metadata: { name: ns } }, { fieldManager: 'test' }).catch((err: unknown) => {
    if (!hasStatus(err, 409)) throw err;
  });
  return (await r.store('serviceaccounts').create(ns, { metadata: { name } }, { fieldManager: 'test' })).object;
}

/** The claims of a compact JWS (not verified: the authenticator does that). */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
