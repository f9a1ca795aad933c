// The certificate signers' flags, as kube-controller-manager 1.28 names and checks them
// (cmd/kube-controller-manager/app/options/csrsigningcontroller.go, app/certificates.go):
// `--cluster-signing-{cert,key}-file` for every built-in signer, or per-signer files
// (`--cluster-signing-<signer>-{cert,key}-file`), never both; `--cluster-signing-duration`.
// Without any file orch signs with the PKI directory's signing CA (kube would not sign at all), and
// then not for kubernetes.io/legacy-unknown, which no certificates.k8s.io/v1 request may name.
// Never with the cluster CA: what it signs with a replica's name as CN is that replica on the Raft
// peer port, and a requester chooses the CN of what a signer issues.
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CertificateAndKey } from '../certificates/pki.ts';
import { clusterSigningDurationMsDefault } from '../certificates/signing/limits.ts';
import { kubeApiServerClientSignerName, kubeletClientSignerName, kubeletServingSignerName, legacyUnknownSignerName } from '../certificates/signing/signer-rules.ts';
import { loadSigningAuthority, type SigningAuthority } from '../certificates/signing/signing-authority.ts';

/** The flag prefix of each built-in signer's own files. */
const signerFlagNames: readonly (readonly [signerName: string, flag: string])[] = [
  [kubeletServingSignerName, 'cluster-signing-kubelet-serving'],
  [kubeletClientSignerName, 'cluster-signing-kubelet-client'],
  [kubeApiServerClientSignerName, 'cluster-signing-kube-apiserver-client'],
  [legacyUnknownSignerName, 'cluster-signing-legacy-unknown'],
];

/** Where a signer's CA comes from: files, or the PKI directory's signing CA. */
export type SignerSource = { readonly certFile: string; readonly keyFile: string } | 'signing-ca';

/** The signing flags after validation. */
export interface SigningFlags {
  /** The CA source of each signer that signs, by signer name. */
  readonly signers: ReadonlyMap<string, SignerSource>;
  /** --cluster-signing-duration: the longest validity of an issued certificate. */
  readonly durationMs: number;
}

/** The parseArgs options of the signing flags. */
export const signingFlagOptions = {
  'cluster-signing-cert-file': { type: 'string' },
  'cluster-signing-key-file': { type: 'string' },
  'cluster-signing-kubelet-serving-cert-file': { type: 'string' },
  'cluster-signing-kubelet-serving-key-file': { type: 'string' },
  'cluster-signing-kubelet-client-cert-file': { type: 'string' },
  'cluster-signing-kubelet-client-key-file': { type: 'string' },
  'cluster-signing-kube-apiserver-client-cert-file': { type: 'string' },
  'cluster-signing-kube-apiserver-client-key-file': { type: 'string' },
  'cluster-signing-legacy-unknown-cert-file': { type: 'string' },
  'cluster-signing-legacy-unknown-key-file': { type: 'string' },
  'cluster-signing-duration': { type: 'string', default: '8760h' },
} as const;

/** The values parseArgs gives for them. */
export type SigningFlagValues = { readonly [flag in Exclude<keyof typeof signingFlagOptions, 'cluster-signing-duration'>]?: string | undefined } & {
  readonly 'cluster-signing-duration'?: string | undefined;
};

/** The cert and key files of one flag prefix: undefined when neither is given; throws when only one is. */
function filesOf(values: SigningFlagValues, prefix: string, makeError: (message: string) => Error): { certFile: string; keyFile: string } | undefined {
  const certFile = values[`${prefix}-cert-file` as keyof SigningFlagValues] ?? '';
  const keyFile = values[`${prefix}-key-file` as keyof SigningFlagValues] ?? '';
  if (certFile === '' && keyFile === '') return undefined;
  if (certFile === '' || keyFile === '') throw makeError(`--${prefix}-cert-file, --${prefix}-key-file: cannot specify key without cert or cert without key`);
  return { certFile, keyFile };
}

/**
 * Validates the flags; throws `makeError(message)` naming the flags (a cert file without its key
 * or the reverse, the cluster-wide files with per-signer ones, a duration that is not positive).
 */
export function parseSigningFlags(values: SigningFlagValues, parseDurationMs: (text: string, flag: string) => number, makeError: (message: string) => Error): SigningFlags {
  const durationMs = parseDurationMs(values['cluster-signing-duration'] ?? '8760h', 'cluster-signing-duration');
  if (durationMs <= 0) throw makeError('--cluster-signing-duration: must be greater than 0');
  const specific = signerFlagNames.map(([signerName, prefix]) => [signerName, filesOf(values, prefix, makeError)] as const);
  const anySpecific = specific.some(([, files]) => files !== undefined);
  const bothGiven = (values['cluster-signing-cert-file'] ?? '') !== '' || (values['cluster-signing-key-file'] ?? '') !== '';
  if (bothGiven && anySpecific) throw makeError('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
  const single = filesOf(values, 'cluster-signing', makeError);
  const signers = new Map<string, SignerSource>();
  for (const [signerName, files] of specific) {
    if (anySpecific) {
      if (files !== undefined) signers.set(signerName, files);
    } else if (single !== undefined) signers.set(signerName, single);
    else if (signerName !== legacyUnknownSignerName) signers.set(signerName, 'signing-ca');
  }
  return { signers, durationMs };
}

/** The flags' defaults: every signer but legacy-unknown with the signing CA, one year. */
export function defaultSigningFlags(): SigningFlags {
  return parseSigningFlags({}, () => clusterSigningDurationMsDefault, (message) => new Error(message));
}

/**
 * Reads and loads each signer's CA (a pair of files shared by signers is loaded once). Throws an
 * Error naming the signer and the files when one cannot be read, its key does not match, or it is
 * the cluster CA that signs the Raft peers' certificates (`pki.ca`).
 */
export async function loadSigningAuthorities(flags: SigningFlags, pki: { readonly ca: CertificateAndKey; readonly signingCa: CertificateAndKey }): Promise<Map<string, SigningAuthority>> {
  const loaded = new Map<string, Promise<SigningAuthority>>();
  const authorities = new Map<string, SigningAuthority>();
  for (const [signerName, source] of flags.signers) {
    const id = source === 'signing-ca' ? '' : `${source.certFile}\n${source.keyFile}`;
    let authority = loaded.get(id);
    if (authority === undefined) {
      authority = source === 'signing-ca'
        ? loadSigningAuthority(pki.signingCa)
        : Promise.all([readFile(source.certFile, 'utf8'), readFile(source.keyFile, 'utf8')]).then(([cert, key]) => loadSigningAuthority({ cert, key }));
      loaded.set(id, authority);
    }
    const where = source === 'signing-ca' ? 'the signing CA' : `${source.certFile} and ${source.keyFile}`;
    let loadedAuthority: SigningAuthority;
    try {
      loadedAuthority = await authority;
    } catch (err) {
      throw new Error(`failed to start ${signerName} certificate controller: ${where}: ${(err as Error).message}`);
    }
    if (isOrUnderClusterCa(loadedAuthority.certificatePem, pki.ca.cert)) {
      throw new Error(`failed to start ${signerName} certificate controller: ${where}: is the cluster CA, which signs the Raft peers' certificates; sign certificate requests with another CA (and add it to --client-ca-file)`);
    }
    authorities.set(signerName, loadedAuthority);
  }
  return authorities;
}

/**
 * Whether the CA `signingPem` is the cluster CA `clusterPem` (its key: a re-issued or renewed
 * certificate over the same key signs what the cluster CA verifies) or a CA the cluster CA issued
 * (its leaves chain to the cluster CA).
 */
function isOrUnderClusterCa(signingPem: string, clusterPem: string): boolean {
  const signing = new X509Certificate(signingPem);
  const cluster = new X509Certificate(clusterPem);
  const spki = (cert: X509Certificate): Buffer => cert.publicKey.export({ type: 'spki', format: 'der' });
  return spki(signing).equals(spki(cluster)) || (signing.checkIssued(cluster) && signing.verify(cluster.publicKey));
}
