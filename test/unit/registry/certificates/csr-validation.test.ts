// CertificateSigningRequest validation, rule by rule, with kube-apiserver 1.28's field paths and
// messages (pkg/apis/certificates/validation/validation.go, ValidateSignerName).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import type { FieldError } from '../../../../internal/registry/schema/field-errors.ts';
import { validateCsrApprovalUpdate, validateCsrCreate, validateCsrStatusUpdate, validateCsrUpdate } from '../../../../internal/registry/certificates/csr-validation.ts';
import { validateSignerName } from '../../../../internal/registry/certificates/signer-name.ts';
import { b64, certificatePem, csrObject, requestPem } from './csr-fixtures.ts';

let ec: string;
let rsa: string;
let certificate: string;
before(() => {
  ec = requestPem('/CN=alice/O=devs');
  rsa = requestPem('/CN=bob', 'rsa');
  certificate = certificatePem();
});

const lines = (errors: readonly FieldError[]): string[] => errors.map((e) => `${e.field}: ${e.message}`);
const withStatus = (obj: KObject, status: Record<string, unknown>): KObject => ({ ...obj, status });

/** `pem` with one bit of its DER flipped at `index` (negative: from the end). */
function tampered(pem: string, index: number): string {
  const der = Buffer.from(pem.split('\n').filter((l) => !l.startsWith('-----')).join(''), 'base64');
  const at = index < 0 ? der.length + index : index;
  der[at] = (der[at] ?? 0) ^ 1;
  return `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
}

test('EC and RSA requests made by openssl are valid', () => {
  assert.deepEqual(validateCsrCreate(csrObject(ec)), []);
  assert.deepEqual(validateCsrCreate(csrObject(rsa, { usages: ['digital signature', 'key encipherment', 'client auth'], expirationSeconds: 600 })), []);
});

test('spec.request must be a CERTIFICATE REQUEST PEM block, shown as Go prints the bytes', () => {
  assert.deepEqual(lines(validateCsrCreate(csrObject('hi'))), ['spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST']);
  const absent = csrObject(ec);
  delete (absent.spec as Record<string, unknown>).request;
  assert.deepEqual(lines(validateCsrCreate(absent)), ['spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST']);
});

test('spec.request must be signed by its own key', () => {
  const [ecError] = lines(validateCsrCreate(csrObject(tampered(ec, 28))));
  assert.match(ecError ?? '', /^spec\.request: Invalid value: \[\]byte\{0x2d, 0x2d, .*\}: x509: ECDSA verification failure$/);
  const [rsaError] = lines(validateCsrCreate(csrObject(tampered(rsa, -5))));
  assert.match(rsaError ?? '', /: crypto\/rsa: verification error$/);
});

test('spec.usages: required, known values only, no duplicates', () => {
  assert.deepEqual(lines(validateCsrCreate(csrObject(ec, { usages: [] }))), ['spec.usages: Required value']);
  const [unknown, dup] = lines(validateCsrCreate(csrObject(ec, { usages: ['client auth', 'ca', 'client auth'] })));
  assert.match(unknown ?? '', /^spec\.usages\[1\]: Unsupported value: "ca": supported values: "any", "cert sign", "client auth", .*"signing", "timestamping"$/);
  assert.equal(dup, 'spec.usages[2]: Duplicate value: "client auth"');
});

test('spec.signerName: required, a domain and a path, not the legacy signer', () => {
  assert.deepEqual(lines(validateCsrCreate(csrObject(ec, { signerName: '' }))), ['spec.signerName: Required value']);
  assert.deepEqual(lines(validateCsrCreate(csrObject(ec, { signerName: 'kubernetes.io/legacy-unknown' }))), ['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version']);
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'a/b/c')), ["spec.signerName: Invalid value: \"a/b/c\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]);
  assert.deepEqual(lines(validateSignerName('spec.signerName', 'localhost/x')), ['spec.signerName: Invalid value: "localhost": should be a domain with at least two segments separated by dots']);
  const [label] = lines(validateSignerName('spec.signerName', 'Example.com/x'));
  assert.match(label ?? '', /^spec\.signerName: Invalid value: "Example\.com": validating label "Example": a lowercase RFC 1123 label/);
  const [path] = lines(validateSignerName('spec.signerName', 'example.com/Bad'));
  assert.match(path ?? '', /^spec\.signerName: Invalid value: "Bad": validating label "Bad": a lowercase RFC 1123 subdomain/);
  assert.deepEqual(lines(validateSignerName('spec.signerName', `example.com/${'a'.repeat(600)}.${'b'.repeat(60)}`)), [
    `spec.signerName: Invalid value: "${'a'.repeat(600)}.${'b'.repeat(60)}": validating label "${'a'.repeat(600)}": must be no more than 253 characters`,
    'spec.signerName: Too long: must have at most 571 bytes',
  ]);
});

test('spec.expirationSeconds: at least 600', () => {
  assert.deepEqual(lines(validateCsrCreate(csrObject(ec, { expirationSeconds: 599 }))), ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']);
});

test('status.conditions: a type, a status its type allows, Approved or Denied, each type once', () => {
  const conditions = [{ status: 'True' }, { type: 'Approved', status: 'False' }, { type: 'Denied', status: 'True' }, { type: 'Other' }, { type: 'Other', status: 'Maybe' }];
  assert.deepEqual(lines(validateCsrCreate(withStatus(csrObject(ec), { conditions }))), [
    'status.conditions[0].type: Required value',
    'status.conditions[1].status: Unsupported value: "False": supported values: "True"',
    'status.conditions[2].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    'status.conditions[3].status: Required value',
    'status.conditions[4].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    'status.conditions[4].type: Duplicate value: "Other"',
  ]);
});

test('status.certificate: CERTIFICATE PEM blocks without headers', () => {
  const invalid = (pem: string) => lines(validateCsrCreate(withStatus(csrObject(ec), { certificate: b64(pem) })));
  assert.deepEqual(invalid(`explanatory text\n${certificate}more text\n`), []);
  assert.deepEqual(invalid(ec), ['status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"']);
  assert.deepEqual(invalid('no pem'), ['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']);
  assert.deepEqual(invalid(certificate.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\n\n')), ['status.certificate: Invalid value: "<certificate data>": no PEM block headers are permitted']);
  assert.deepEqual(invalid('-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n'), ['status.certificate: Invalid value: "<certificate data>": x509: malformed certificate']);
});

test('updates: only /status sets the certificate, only /approval the approval conditions', () => {
  const old = csrObject(ec);
  const issued = withStatus(old, { certificate: b64(certificate) });
  assert.deepEqual(lines(validateCsrUpdate(issued, old)), ['status.certificate: Forbidden: updates may not set certificate content']);
  assert.deepEqual(validateCsrStatusUpdate(issued, old), []);
  const approved = withStatus(old, { conditions: [{ type: 'Approved', status: 'True' }] });
  assert.deepEqual(lines(validateCsrStatusUpdate(approved, old)), ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);
  assert.deepEqual(validateCsrApprovalUpdate(approved, old), []);
  const changed = withStatus(old, { conditions: [{ type: 'Approved', status: 'True', reason: 'Other' }] });
  const [modified] = lines(validateCsrStatusUpdate(changed, approved));
  assert.match(modified ?? '', /^status\.conditions: Forbidden: updates may not modify a condition of type "Approved"\n/);
});

test('updates tolerate what the stored object already has', () => {
  const legacy = csrObject(ec, { signerName: 'kubernetes.io/legacy-unknown', usages: ['ca', 'ca'] });
  const withDuplicates = withStatus(legacy, { conditions: [{ type: 'Failed', status: 'True' }, { type: 'Failed', status: 'True' }] });
  assert.deepEqual(validateCsrUpdate(withDuplicates, withDuplicates), []);
});
