/**
 * The cluster's PKI on disk: one CA and one peer certificate per replica, and the signing CA of
 * certificate requests. A local cluster's directory holds every key, and what is missing is made
 * on first start and reused afterwards, so a restarted replica keeps its identity. A real host's
 * directory holds `ca.crt` without `ca.key` (the CA key stays on the operator's machine, where
 * `orchctl certs` issues each replica's certificate): then nothing is made, and what is missing is
 * a one-line PkiFileError saying which file to copy there.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCertificateAuthority, issuePeerCertificate } from './pki.ts';
import type { CertificateAndKey } from './pki.ts';

/** The CA and each replica's peer certificate, PEM. */
export interface ClusterPki {
  /**
   * The cluster CA. Its `key` throws PkiFileError when the directory has no `ca.key` (a host's
   * copy): only issuing a certificate needs it, so read it only to issue one.
   */
  readonly ca: CertificateAndKey;
  /** Whether `ca.key` is in the directory (this PKI can issue certificates). */
  readonly hasCaKey: boolean;
  /**
   * The CA the built-in CSR signers sign with by default (`signing-ca.crt`, `signing-ca.key`). Not
   * the cluster CA: that one's certificates are Raft peers' when their CN names a replica, and a
   * requester chooses the CN of what a signer issues. On a host without `ca.key` its `cert` and
   * `key` throw PkiFileError when they are not on disk (a replica whose signers all have
   * --cluster-signing-* files never reads them).
   */
  readonly signingCa: CertificateAndKey;
  readonly replicas: Readonly<Record<string, CertificateAndKey>>;
  /** The directory holding `ca.crt`, `ca.key`, `peer-<name>.crt`, `peer-<name>.key`. */
  readonly dir: string;
}

/** A PKI file that is missing, partial or does not fit the rest; the message says which and what to do. */
export class PkiFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PkiFileError';
  }
}

/** What is on disk of a pair: each half's text, or null when the file does not exist. */
interface PairFiles {
  readonly cert: string | null;
  readonly key: string | null;
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function readPairFiles(dir: string, base: string): Promise<PairFiles> {
  const [cert, key] = await Promise.all([readOptional(join(dir, `${base}.crt`)), readOptional(join(dir, `${base}.key`))]);
  return { cert, key };
}

/** Writes a pair atomically (temp file + rename); keys are readable by the owner only. */
export async function writePair(dir: string, base: string, pair: CertificateAndKey): Promise<void> {
  for (const [ext, text, mode] of [['key', pair.key, 0o600], ['crt', pair.cert, 0o644]] as const) {
    const path = join(dir, `${base}.${ext}`);
    await writeFile(`${path}.tmp`, text, { mode });
    await rename(`${path}.tmp`, path);
  }
}

/** A certificate whose key is elsewhere: reading `key` throws `missing()`. */
function certificateWithoutKey(cert: string, missing: () => PkiFileError): CertificateAndKey {
  return {
    cert,
    get key(): string {
      throw missing();
    },
  };
}

/** Throws PkiFileError when `key` is not the private key of `cert`, or either does not parse. */
function assertKeyMatches(dir: string, base: string, pair: CertificateAndKey): void {
  let matches: boolean;
  try {
    matches = new X509Certificate(pair.cert).checkPrivateKey(createPrivateKey(pair.key));
  } catch (err) {
    throw new PkiFileError(`${base}.crt or ${base}.key in ${dir} is not a PEM certificate and its key: ${(err as Error).message}`);
  }
  if (!matches) throw new PkiFileError(`${base}.key in ${dir} is not the key of ${base}.crt: copy the two files of one pair`);
}

/**
 * Loads a CA pair: null when neither file exists. A certificate without its key is loaded with a
 * key that throws `missingKey()`; a key without its certificate is an error (a new CA is never
 * made over a file that exists).
 */
async function loadCa(dir: string, base: string, missingKey: () => PkiFileError): Promise<{ pair: CertificateAndKey; hasKey: boolean } | null> {
  const files = await readPairFiles(dir, base);
  if (files.cert === null && files.key === null) return null;
  if (files.cert === null) throw new PkiFileError(`${base}.key in ${dir} without ${base}.crt: copy ${base}.crt there too (a new CA is never made over an existing key)`);
  if (files.key === null) return { pair: certificateWithoutKey(files.cert, missingKey), hasKey: false };
  const pair = { cert: files.cert, key: files.key };
  assertKeyMatches(dir, base, pair);
  return { pair, hasKey: true };
}

/** Makes the CA `base` (`commonName`) in `dir` unless either of its files exists; returns whether it made it. */
async function createCaIfMissing(dir: string, base: string, commonName: string): Promise<boolean> {
  const files = await readPairFiles(dir, base);
  if (files.cert !== null || files.key !== null) return false;
  await writePair(dir, base, await createCertificateAuthority(commonName));
  return true;
}

/** The replica names that are file-name safe (and so cannot walk out of the directory). */
function assertReplicaName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`assert: bad replica name ${JSON.stringify(name)}`);
}

/** Throws PkiFileError unless `pair` is replica `name`'s certificate, issued by `caPem`, valid now. */
function assertPeerCertificate(dir: string, name: string, pair: CertificateAndKey, caPem: string): void {
  const base = `peer-${name}`;
  assertKeyMatches(dir, base, pair);
  const cert = new X509Certificate(pair.cert);
  const ca = new X509Certificate(caPem);
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) throw new PkiFileError(`${base}.crt in ${dir} is not signed by ca.crt there: issue it from this cluster's CA (orchctl certs replica ${name})`);
  const commonName = /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1];
  if (commonName !== name) throw new PkiFileError(`${base}.crt in ${dir} is for CN=${commonName ?? ''}, not ${name}: the Raft peers know a replica by its certificate's CN`);
  if (Date.parse(cert.validTo) <= Date.now()) throw new PkiFileError(`${base}.crt in ${dir} expired on ${cert.validTo}: issue a new one (orchctl certs replica ${name})`);
}

/** Loads replica `name`'s peer certificate, or issues it when it is missing and the CA key is here. */
async function ensurePeerCertificate(dir: string, name: string, ca: { pair: CertificateAndKey; hasKey: boolean }): Promise<CertificateAndKey> {
  assertReplicaName(name);
  const base = `peer-${name}`;
  const existing = await readPair(dir, base);
  if (existing !== null) {
    assertPeerCertificate(dir, name, existing, ca.pair.cert);
    return existing;
  }
  if (!ca.hasKey) {
    throw new PkiFileError(`no certificate for replica ${name} in ${dir} and no ca.key to issue one: run orchctl certs replica ${name} --hosts <its names and addresses> and copy ${base}.crt/.key there`);
  }
  const pair = await issuePeerCertificate(ca.pair, name);
  await writePair(dir, base, pair);
  return pair;
}

/** Where the operator's CA files are made, for the messages of a host's missing files. */
function copyHint(dir: string, files: string): string {
  return `run orchctl certs ca --pki-dir <the operator's pki directory> and copy ${files} to ${dir}`;
}

/**
 * The signing CA: loaded, made when the cluster CA key is here too (a local cluster), or, on a host
 * without it, a pair whose fields throw PkiFileError when read (one host must not make its own:
 * every replica signs as the same CA, and the others' --client-ca-file would not trust another).
 */
async function ensureSigningCa(dir: string, hasCaKey: boolean): Promise<CertificateAndKey> {
  const missingKey = (): PkiFileError => new PkiFileError(`signing-ca.crt in ${dir} without signing-ca.key, which the certificate signers sign with: ${copyHint(dir, 'signing-ca.key')}, or give --cluster-signing-cert-file and --cluster-signing-key-file`);
  if (hasCaKey) await createCaIfMissing(dir, 'signing-ca', 'orch-signing-ca');
  const loaded = await loadCa(dir, 'signing-ca', missingKey);
  if (loaded !== null) return loaded.pair;
  const missing = (): PkiFileError => new PkiFileError(`no signing-ca.crt/.key in ${dir}, which the certificate signers sign with: ${copyHint(dir, 'signing-ca.crt/.key')}, or give --cluster-signing-cert-file and --cluster-signing-key-file`);
  return {
    get cert(): string {
      throw missing();
    },
    get key(): string {
      throw missing();
    },
  };
}

/**
 * Loads the cluster PKI from `dir` (made, mode 0700, when missing). With `ca.key` there (or no CA
 * at all: a new local cluster), missing CAs and replica certificates are made. Existing files are
 * never replaced; files that are partial (a certificate without its key), do not match their key,
 * or peer certificates not issued by `ca.crt` for their replica are PkiFileErrors, as is a replica
 * certificate that is missing when `ca.key` is not there to issue it. Replica names must be plain
 * file-name-safe identifiers.
 */
export async function ensureClusterPki(dir: string, replicaNames: readonly string[]): Promise<ClusterPki> {
  // Only when missing: a host's pki directory is often read-only to the replica (systemd's ProtectSystem).
  if (!(await exists(dir))) await mkdir(dir, { recursive: true, mode: 0o700 });
  const missingCaKey = (): PkiFileError => new PkiFileError(`no ca.key in ${dir} to issue certificates with: issue them where the CA key is (orchctl certs)`);
  let ca = await loadCa(dir, 'ca', missingCaKey);
  if (ca === null) {
    await createCaIfMissing(dir, 'ca', 'orch-cluster-ca');
    ca = await loadCa(dir, 'ca', missingCaKey);
    if (ca === null) throw new Error(`assert: the CA just made in ${dir} is not there`);
  }
  const signingCa = await ensureSigningCa(dir, ca.hasKey);
  const replicas: Record<string, CertificateAndKey> = {};
  for (const name of replicaNames) replicas[name] = await ensurePeerCertificate(dir, name, ca);
  return { ca: ca.pair, hasCaKey: ca.hasKey, signingCa, replicas, dir };
}

/**
 * Loads the CA `base` (`ca` or `signing-ca`) of `dir` to issue certificates with. Throws
 * PkiFileError when it is missing (`orchctl certs ca` makes it) or here without its key (a host's
 * copy: certificates are issued where the CA key stays).
 */
export async function loadIssuingCa(dir: string, base: 'ca' | 'signing-ca' = 'ca'): Promise<CertificateAndKey> {
  const missingKey = (): PkiFileError => new PkiFileError(`${base}.crt in ${dir} without ${base}.key: this is a host's copy; issue certificates where the CA key is`);
  const loaded = await loadCa(dir, base, missingKey);
  if (loaded === null) throw new PkiFileError(`no ${base}.crt/.key in ${dir}: make the CAs first (orchctl certs ca --pki-dir ${dir})`);
  if (!loaded.hasKey) throw missingKey();
  return loaded.pair;
}

/**
 * Makes the cluster CA and the signing CA in `dir` when they are missing (the operator's machine:
 * `orchctl certs ca`) and returns them with the names of those it made. Throws PkiFileError when
 * a CA is here without its key (a host's copy).
 */
export async function ensureCertificateAuthorities(dir: string): Promise<{ ca: CertificateAndKey; signingCa: CertificateAndKey; made: string[] }> {
  if (!(await exists(dir))) await mkdir(dir, { recursive: true, mode: 0o700 });
  const made: string[] = [];
  for (const [base, commonName] of [['ca', 'orch-cluster-ca'], ['signing-ca', 'orch-signing-ca']] as const) {
    if (await createCaIfMissing(dir, base, commonName)) made.push(base);
  }
  return { ca: await loadIssuingCa(dir, 'ca'), signingCa: await loadIssuingCa(dir, 'signing-ca'), made };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Reads `<base>.crt` and `<base>.key` in `dir`: the pair, or null when neither exists; PkiFileError when only one does. */
export async function readPair(dir: string, base: string): Promise<CertificateAndKey | null> {
  const files = await readPairFiles(dir, base);
  if (files.cert === null && files.key === null) return null;
  if (files.cert === null || files.key === null) {
    const [present, absent] = files.cert !== null ? [`${base}.crt`, `${base}.key`] : [`${base}.key`, `${base}.crt`];
    throw new PkiFileError(`${present} in ${dir} without ${absent}: both files of a pair are needed`);
  }
  return { cert: files.cert, key: files.key };
}
