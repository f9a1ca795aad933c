/**
 * The cluster's PKI on disk: one CA and one peer certificate per replica, and the signing CA of
 * certificate requests, created on first start and reused afterwards, so a restarted replica keeps
 * its identity.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCertificateAuthority, issuePeerCertificate } from './pki.ts';
import type { CertificateAndKey } from './pki.ts';

/** The CA and each replica's peer certificate, PEM. */
export interface ClusterPki {
  readonly ca: CertificateAndKey;
  /**
   * The CA the built-in CSR signers sign with by default (`signing-ca.crt`, `signing-ca.key`). Not
   * the cluster CA: that one's certificates are Raft peers' when their CN names a replica, and a
   * requester chooses the CN of what a signer issues.
   */
  readonly signingCa: CertificateAndKey;
  readonly replicas: Readonly<Record<string, CertificateAndKey>>;
  /** The directory holding `ca.crt`, `ca.key`, `<name>.crt`, `<name>.key`. */
  readonly dir: string;
}

async function readPair(dir: string, base: string): Promise<CertificateAndKey | null> {
  try {
    const [cert, key] = await Promise.all([readFile(join(dir, `${base}.crt`), 'utf8'), readFile(join(dir, `${base}.key`), 'utf8')]);
    return { cert, key };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Writes a pair atomically (temp file + rename); keys are readable by the owner only. */
export async function writePair(dir: string, base: string, pair: CertificateAndKey): Promise<void> {
  for (const [ext, text, mode] of [['key', pair.key, 0o600], ['crt', pair.cert, 0o644]] as const) {
    const path = join(dir, `${base}.${ext}`);
    await writeFile(`${path}.tmp`, text, { mode });
    await rename(`${path}.tmp`, path);
  }
}

/**
 * Loads the cluster PKI from `dir`, creating the CA and any missing replica certificate.
 * Existing files are never replaced. Replica names must be plain file-name-safe identifiers.
 */
export async function ensureClusterPki(dir: string, replicaNames: readonly string[]): Promise<ClusterPki> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let ca = await readPair(dir, 'ca');
  if (!ca) {
    ca = await createCertificateAuthority('orch-cluster-ca');
    await writePair(dir, 'ca', ca);
  }
  let signingCa = await readPair(dir, 'signing-ca');
  if (!signingCa) {
    signingCa = await createCertificateAuthority('orch-signing-ca');
    await writePair(dir, 'signing-ca', signingCa);
  }
  const replicas: Record<string, CertificateAndKey> = {};
  for (const name of replicaNames) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`assert: bad replica name ${JSON.stringify(name)}`);
    let pair = await readPair(dir, `peer-${name}`);
    if (!pair) {
      pair = await issuePeerCertificate(ca, name);
      await writePair(dir, `peer-${name}`, pair);
    }
    replicas[name] = pair;
  }
  return { ca, signingCa, replicas, dir };
}
