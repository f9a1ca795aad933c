// Certificate requests and certificates made with openssl, as users make them, for the CSR tests.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';

/** Runs openssl in a temp directory and returns the text of the file it wrote at `out`. */
function openssl(args: (dir: string) => string[], out: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-csr-'));
  try {
    execFileSync('openssl', args(dir), { stdio: 'ignore' });
    return readFileSync(join(dir, out), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PKCS#10 request PEM for `subject` (openssl's -subj form) with a fresh key: `ec` (P-256) or `rsa` (2048 bits). */
export function requestPem(subject: string, key: 'ec' | 'rsa' = 'ec'): string {
  const keyArgs = key === 'ec' ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'] : ['-newkey', 'rsa:2048'];
  return openssl((dir) => ['req', '-new', ...keyArgs, '-nodes', '-keyout', join(dir, 'k.pem'), '-subj', subject, '-out', join(dir, 'r.pem')], 'r.pem');
}

/** A self-signed certificate PEM. */
export function certificatePem(subject = '/CN=issued'): string {
  return openssl((dir) => ['req', '-x509', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'k.pem'), '-subj', subject, '-days', '1', '-out', join(dir, 'c.pem')], 'c.pem');
}

/** `text` base64-encoded, as JSON carries a byte field. */
export const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** A CSR object of `pem` for `signerName`, with `spec` fields added. */
export function csrObject(pem: string, spec: Record<string, unknown> = {}, name = 'csr'): KObject {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: b64(pem), signerName: 'example.com/signer', usages: ['client auth'], ...spec },
  };
}
