// A CSR's request read as Go's x509.ParseCertificateRequest reads it: the subject's last common
// name is the one (the signer issues it and the authenticator believes it, so every check must look
// at it), and what Go refuses to parse is refused here too.
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificateRequestError, parseCertificateRequest } from '../../../internal/certificates/certificate-request.ts';
import { kubeletClientRule } from '../../../internal/certificates/signing/signer-rules.ts';
import { pemBlocks } from '../../../internal/certificates/pem-blocks.ts';

/** An openssl-made request; `keyArgs` choose the key. */
function opensslRequest(subject: string, keyArgs: readonly string[] = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1']): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-csr-'));
  try {
    execFileSync('openssl', ['req', '-new', ...keyArgs, '-nodes', '-keyout', join(dir, 'k'), '-subj', subject, '-out', join(dir, 'r')], { stdio: 'ignore' });
    return readFileSync(join(dir, 'r'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('of several common names the last is the subject\'s, as Go reads it, so a node request cannot smuggle another user', () => {
  const smuggled = parseCertificateRequest(opensslRequest('/O=system:nodes/CN=system:node:evil/CN=system:kube-controller-manager'));
  assert.equal(smuggled.commonName, 'system:kube-controller-manager');
  assert.equal(kubeletClientRule(smuggled, ['digital signature', 'client auth']), 'subject common name does not begin with system:node:');
  const multiValued = parseCertificateRequest(opensslRequest('/O=system:nodes/CN=system:node:m+CN=system:kube-scheduler'));
  assert.notEqual(kubeletClientRule(multiValued, ['digital signature', 'client auth']), undefined);
  const reversed = parseCertificateRequest(opensslRequest('/O=system:nodes/CN=admin/CN=system:node:rev'));
  assert.equal(reversed.commonName, 'system:node:rev');
  assert.equal(kubeletClientRule(reversed, ['digital signature', 'client auth']), undefined);
});

test('a request on a curve Go does not know, or with bytes after its DER, is refused with Go\'s error', () => {
  assert.throws(() => parseCertificateRequest(opensslRequest('/CN=k1', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:secp256k1'])), (err: unknown) => err instanceof CertificateRequestError && err.message === 'x509: unsupported elliptic curve');
  for (const curve of ['prime256v1', 'secp384r1', 'secp521r1']) assert.equal(parseCertificateRequest(opensslRequest('/CN=c', ['-newkey', 'ec', '-pkeyopt', `ec_paramgen_curve:${curve}`])).commonName, 'c', curve);
  assert.equal(parseCertificateRequest(opensslRequest('/CN=ed', ['-newkey', 'ed25519'])).commonName, 'ed');
  const pem = opensslRequest('/CN=t');
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s/g, ''), 'base64');
  const padded = `-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.concat([der, Buffer.from([0, 0])]).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
  assert.throws(() => parseCertificateRequest(padded), /^Error: asn1: syntax error: trailing data$/);
});

test('the self-signature is checked: a request whose signed part was changed has a problem', () => {
  const request = parseCertificateRequest(opensslRequest('/CN=alice'));
  assert.equal(request.signatureProblem(), undefined);
  const der = Buffer.from(request.der);
  // A byte of the subject's common name ("alice" -> "blice") without a new signature.
  const at = der.indexOf(Buffer.from('alice'));
  der[at] = 0x62;
  const tampered = parseCertificateRequest(`-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
  assert.equal(tampered.commonName, 'blice');
  assert.equal(tampered.signatureProblem(), 'x509: ECDSA verification failure');
});

test('PEM is read as Go\'s pem.Decode reads it, so the block orch checks is the block every approver sees', () => {
  const block = (type: string, body: string): string => `-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`;
  const a = Buffer.from('AAA').toString('base64');
  const b = Buffer.from('BBB').toString('base64');
  const first = (text: string): string => Buffer.from(pemBlocks(text)[0]?.der ?? []).toString();
  assert.equal(first(`${block('X', a)}${block('X', b)}`), 'AAA');
  assert.equal(first(`junk${block('X', a)}${block('X', b)}`), 'BBB', 'BEGIN must start a line');
  assert.equal(first(`${block('X', `${a.slice(0, 2)}\f${a.slice(2)}`)}${block('X', b)}`), 'BBB', 'a form feed fails the block');
  assert.equal(first(`${block('X', `${a.slice(0, 2)}\u00a0${a.slice(2)}`)}${block('X', b)}`), 'BBB', 'a non-breaking space fails the block');
  assert.equal(first(`${block('X', `${a.slice(0, 2)} \t${a.slice(2)}`)}${block('X', b)}`), 'AAA', 'spaces and tabs are dropped');
  assert.equal(first(`${block('X', 'QUFB')}`.replace('-----END X-----', '-----END Y-----') + block('X', b)), 'BBB', 'the END line must name the type');
  assert.deepEqual(pemBlocks(`-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n${a}\n-----END X-----\n`)[0]?.headers, ['Proc-Type: 4,ENCRYPTED']);
});

test('a request with its subjectAltName extension twice is refused, as Go refuses it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-csr-'));
  try {
    const config = join(dir, 'c.cnf');
    writeFileSync(config, '[req]\ndistinguished_name=dn\nreq_extensions=ext\n[dn]\n[ext]\nsubjectAltName=DNS:a.example\n1.2.3.4=ASN1:NULL\n');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'k'), '-subj', '/CN=x', '-config', config, '-out', join(dir, 'r')], { stdio: 'ignore' });
    const pem = readFileSync(join(dir, 'r'), 'utf8');
    assert.deepEqual(parseCertificateRequest(pem).dnsNames, ['a.example']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const twice = readFileSync(join(import.meta.dirname, 'testdata', 'two-san.csr'), 'utf8');
  assert.throws(() => parseCertificateRequest(twice), /^Error: x509: certificate request contains duplicate requested extensions$/);
});
