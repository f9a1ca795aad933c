// The credentials a local cluster shares among its replicas, made once per data directory and
// reused afterwards (restarts keep kubeconfigs and tokens valid): the admin's client certificate
// (CN orch-admin, O system:masters, signed by the cluster CA), a token file holding the static
// admin token, and the service-account signing key pair every replica must share.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueCertificate, writePair, type CertificateAndKey, type ClusterPki } from '../certificates/index.ts';
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

async function ensureAdminClient(pki: ClusterPki): Promise<CertificateAndKey> {
  const cert = join(pki.dir, 'admin.crt');
  const key = join(pki.dir, 'admin.key');
  if (existsSync(cert) && existsSync(key)) return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  const pair = await issueCertificate(pki.ca, { commonName: adminUsername, organizations: [adminGroup], usages: ['client'] });
  await writePair(pki.dir, 'admin', pair);
  return pair;
}

/** The service-account key pair (RSA 2048, as kubeadm's sa.key / sa.pub), made when missing. */
function ensureServiceAccountKeys(dir: string): { keyFile: string; signingKeyFile: string } {
  const signingKeyFile = join(dir, 'sa.key');
  const keyFile = join(dir, 'sa.pub');
  if (!existsSync(signingKeyFile) || !existsSync(keyFile)) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeOnce(signingKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 0o600);
    writeOnce(keyFile, publicKey.export({ type: 'spki', format: 'pem' }).toString(), 0o644);
  }
  return { keyFile, signingKeyFile };
}

/** Loads or makes the cluster's shared credentials under `dataDir` (the PKI's files in `pki.dir`). */
export async function ensureClusterCredentials(dataDir: string, pki: ClusterPki): Promise<ClusterCredentials> {
  const adminClient = await ensureAdminClient(pki);
  const adminToken = ensureAdminToken(join(dataDir, 'admin-token'));
  const tokenAuthFile = join(dataDir, 'token-auth.csv');
  // Rewritten on every start: it follows the admin-token file, the one place the token lives.
  writeOnce(tokenAuthFile, `${adminToken},${adminUsername},${adminUsername},"${adminGroup}"\n`, 0o600);
  const keys = ensureServiceAccountKeys(pki.dir);
  return { adminClient, adminToken, tokenAuthFile, serviceAccountKeyFile: keys.keyFile, serviceAccountSigningKeyFile: keys.signingKeyFile };
}
