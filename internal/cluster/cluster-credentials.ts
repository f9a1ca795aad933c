// The credentials a local cluster shares among its replicas, made once per data directory and
// reused afterwards (restarts keep kubeconfigs and tokens valid): the admin's client certificate
// (CN orch-admin, O system:masters, signed by the cluster CA), a token file holding the static
// admin token, and the service-account signing key pair every replica must share.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueCertificate, writePair, type CertificateAndKey, type ClusterPki } from '../certificates/index.ts';
import { PkiFileError, readPair } from '../certificates/cluster-pki.ts';
import { ensureAdminToken } from './admin-token.ts';

/** kubeadm's --service-account-issuer: the in-cluster name of the API. */
export const serviceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';

/** The admin's identity: what its client certificate says and the token file's line. */
export const adminUsername = 'orch-admin';
export const adminGroup = 'system:masters';

/** What every replica of a local cluster is started with, and what its kubeconfig holds. */
export interface ClusterCredentials {
  /** The admin's client certificate and key (PEM). */
  readonly adminClient: CertificateAndKey;
  /** The static admin bearer token (also in `tokenAuthFile`). */
  readonly adminToken: string;
  /** --token-auth-file: one line, the admin token as orch-admin in system:masters. */
  readonly tokenAuthFile: string;
  /** --service-account-key-file (the public key, PEM). */
  readonly serviceAccountKeyFile: string;
  /** --service-account-signing-key-file (the private key, PEM, mode 0600). */
  readonly serviceAccountSigningKeyFile: string;
}

function writeOnce(path: string, text: string, mode: number): void {
  writeFileSync(`${path}.tmp`, text, { mode });
  renameSync(`${path}.tmp`, path);
}

/** The admin's client certificate in `dir` (admin.crt/.key), issued by `issuer` when missing; `made` says which. */
export async function ensureAdminClient(dir: string, issuer: CertificateAndKey): Promise<{ pair: CertificateAndKey; made: boolean }> {
  const existing = await readPair(dir, 'admin');
  if (existing !== null) return { pair: existing, made: false };
  const pair = await issueCertificate(issuer, { commonName: adminUsername, organizations: [adminGroup], usages: ['client'] });
  await writePair(dir, 'admin', pair);
  return { pair, made: true };
}

/**
 * The service-account key pair every replica signs and verifies tokens with (RSA 2048, kubeadm's
 * sa.key / sa.pub), made when both are missing; `made` says which. Half a pair is refused: every
 * replica must share the same one.
 */
export function ensureServiceAccountKeys(dir: string): { keyFile: string; signingKeyFile: string; made: boolean } {
  const signingKeyFile = join(dir, 'sa.key');
  const keyFile = join(dir, 'sa.pub');
  if (existsSync(signingKeyFile) || existsSync(keyFile)) {
    if (!existsSync(signingKeyFile) || !existsSync(keyFile)) throw new PkiFileError(`only one of sa.key and sa.pub is in ${dir}: restore the other (every replica must share the pair)`);
    return { keyFile, signingKeyFile, made: false };
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeOnce(signingKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 0o600);
  writeOnce(keyFile, publicKey.export({ type: 'spki', format: 'pem' }).toString(), 0o644);
  return { keyFile, signingKeyFile, made: true };
}

/** Loads or makes the cluster's shared credentials under `dataDir` (the PKI's files in `pki.dir`). */
export async function ensureClusterCredentials(dataDir: string, pki: ClusterPki): Promise<ClusterCredentials> {
  const { pair: adminClient } = await ensureAdminClient(pki.dir, pki.ca);
  const adminToken = ensureAdminToken(join(dataDir, 'admin-token'));
  const tokenAuthFile = join(dataDir, 'token-auth.csv');
  // Rewritten on every start: it follows the admin-token file, the one place the token lives.
  writeOnce(tokenAuthFile, `${adminToken},${adminUsername},${adminUsername},"${adminGroup}"\n`, 0o600);
  const keys = ensureServiceAccountKeys(pki.dir);
  return { adminClient, adminToken, tokenAuthFile, serviceAccountKeyFile: keys.keyFile, serviceAccountSigningKeyFile: keys.signingKeyFile };
}
