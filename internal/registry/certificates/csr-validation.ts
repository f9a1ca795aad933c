// CertificateSigningRequest validation as kube-apiserver 1.28 does it for certificates.k8s.io/v1
// (pkg/apis/certificates/validation/validation.go): the request parses and is self-signed, a
// signer name, known and unique usages, at least ten minutes of requested duration, conditions
// unique by type with the statuses their type allows, an issued certificate of CERTIFICATE PEM
// blocks. Updates may not remove Approved, Denied or Failed conditions, and only their own
// sub-resource may set the approval conditions (/approval) or the certificate (/status). Problems a
// stored object already has are tolerated on update, as kube tolerates data from older versions.
import type { KObject } from '../schema/declaration.ts';
import { duplicate, forbidden, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { field, text } from '../schema/printers.ts';
import { jsonEqual } from '../../patch/json-value.ts';
import { parseCertificateRequest } from '../../certificates/certificate-request.ts';
import { approved, bytesAt, conditionsOf, denied, failed, goBytesText, sameBytes, usagesOf, type CsrCondition, requestPemOf } from './csr-fields.ts';
import { certificateProblem } from './issued-certificate.ts';
import { validateSignerName } from './signer-name.ts';

/** The signer name of requests made before signer names existed; v1 refuses it for new requests. */
export const legacyUnknownSignerName = 'kubernetes.io/legacy-unknown';

/** The key usages a request may ask for (kube's allValidUsages), sorted as Go's sets list them. */
export const validUsages: readonly string[] = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment', 'cert sign', 'crl sign',
  'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing', 'email protection', 's/mime', 'ipsec end system',
  'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing', 'microsoft sgc', 'netscape sgc',
].sort();

const trueOnlyTypes = new Set([approved, denied, failed]);
const allStatuses = ['False', 'True', 'Unknown'];
const trueOnly = ['True'];
const expirationSecondsMin = 600;

/** What one write path may do, and what a stored object's existing problems let through (kube's certificateValidationOptions). */
interface Options {
  readonly allowSettingApprovalConditions: boolean;
  readonly allowSettingCertificate: boolean;
  readonly allowBothApprovedAndDenied: boolean;
  readonly allowLegacySignerName: boolean;
  readonly allowDuplicateConditionTypes: boolean;
  readonly allowEmptyConditionType: boolean;
  readonly allowArbitraryCertificate: boolean;
  readonly allowUnknownUsages: boolean;
  readonly allowDuplicateUsages: boolean;
}

function hasDuplicates(values: readonly unknown[]): boolean {
  return new Set(values).size !== values.length;
}

/** The options for a write of `obj` over `old` (undefined on create): the stored object's problems are tolerated. */
function optionsFor(obj: KObject, old: KObject | undefined): Options {
  const oldTypes = old === undefined ? [] : conditionsOf(old).map((c) => c.type ?? '');
  const oldUsages = old === undefined ? [] : usagesOf(old);
  const oldCertificate = old === undefined ? null : bytesAt(old, 'status.certificate');
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes(approved) && oldTypes.includes(denied),
    allowLegacySignerName: old !== undefined && text(old, 'spec.signerName') === legacyUnknownSignerName,
    allowDuplicateConditionTypes: hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate: old !== undefined && (sameBytes(bytesAt(obj, 'status.certificate'), oldCertificate) || certificateProblem(oldCertificate ?? new Uint8Array()) !== undefined),
    allowUnknownUsages: oldUsages.some((u) => typeof u !== 'string' || !validUsages.includes(u)),
    allowDuplicateUsages: hasDuplicates(oldUsages),
  };
}

/** Why spec.request is not a self-signed certificate request, in Go's words; undefined when it is. */
function requestProblem(obj: KObject): string | undefined {
  try {
    return parseCertificateRequest(requestPemOf(obj)).signatureProblem();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

function validateUsages(obj: KObject, opts: Options): FieldError[] {
  const usages = usagesOf(obj);
  const errors: FieldError[] = [];
  if (usages.length === 0) errors.push(required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (typeof u !== 'string' || !validUsages.includes(u)) errors.push(notSupported(`spec.usages[${i}]`, u, validUsages));
    });
  }
  if (!opts.allowDuplicateUsages) {
    usages.forEach((u, i) => {
      if (usages.indexOf(u) < i) errors.push(duplicate(`spec.usages[${i}]`, u));
    });
  }
  return errors;
}

function validateConditions(obj: KObject, opts: Options): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<unknown>();
  let hasApproved = false;
  let hasDenied = false;
  conditionsOf(obj).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    const type = c.type ?? '';
    if (!opts.allowEmptyConditionType && type === '') errors.push(required(`${at}.type`));
    const allowed = trueOnlyTypes.has(String(type)) ? trueOnly : allStatuses;
    const status = c.status ?? '';
    if (status === '') errors.push(required(`${at}.status`));
    else if (typeof status !== 'string' || !allowed.includes(status)) errors.push(notSupported(`${at}.status`, status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === approved) hasApproved = true;
      if (type === denied) hasDenied = true;
      if ((type === approved && hasDenied) || (type === denied && hasApproved)) errors.push(invalidValue(`${at}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errors.push(duplicate(`${at}.type`, type));
      seen.add(type);
    }
  });
  return errors;
}

/** validateCertificateSigningRequest: every rule on one object (metadata is the generic validation's). */
function validateObject(obj: KObject, opts: Options): FieldError[] {
  const errors: FieldError[] = [];
  const problem = requestProblem(obj);
  if (problem !== undefined) errors.push(invalidShown('spec.request', goBytesText(bytesAt(obj, 'spec.request')), problem));
  errors.push(...validateUsages(obj, opts));
  const signerName = text(obj, 'spec.signerName');
  if (!opts.allowLegacySignerName && signerName === legacyUnknownSignerName) {
    errors.push(invalidValue('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else errors.push(...validateSignerName('spec.signerName', signerName));
  const expiration = field(obj, 'spec.expirationSeconds');
  if (typeof expiration === 'number' && expiration < expirationSecondsMin) {
    errors.push(invalidValue('spec.expirationSeconds', expiration, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errors.push(...validateConditions(obj, opts));
  if (!opts.allowArbitraryCertificate) {
    const certificate = certificateProblem(bytesAt(obj, 'status.certificate') ?? new Uint8Array());
    if (certificate !== undefined) errors.push(invalidValue('status.certificate', '<certificate data>', certificate));
  }
  return errors;
}

const ofType = (obj: KObject, type: string): CsrCondition[] => conditionsOf(obj).filter((c) => c.type === type);

/** A plain rendering of what changed in a condition list (kube appends a cmp.Diff, whose exact text is Go's). */
function conditionDiff(before: readonly CsrCondition[], after: readonly CsrCondition[]): string {
  return [...before.map((c) => `- ${JSON.stringify(c)}`), ...after.map((c) => `+ ${JSON.stringify(c)}`)].join('\n');
}

function validateUpdateOf(obj: KObject, old: KObject, opts: Options): FieldError[] {
  const errors = validateObject(obj, opts);
  for (const type of [approved, denied, failed]) {
    if (ofType(obj, type).length < ofType(old, type).length) errors.push(forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(type)}`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const type of [approved, denied]) {
      const before = ofType(old, type);
      const after = ofType(obj, type);
      if (after.length > before.length) errors.push(forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(type)}`));
      else if (after.length === before.length && !jsonEqual(before, after)) {
        errors.push(forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(type)}\n${conditionDiff(before, after)}`));
      }
    }
  }
  if (!sameBytes(bytesAt(obj, 'status.certificate'), bytesAt(old, 'status.certificate'))) {
    if (!opts.allowSettingCertificate) errors.push(forbidden('status.certificate', 'updates may not set certificate content'));
    else if ((bytesAt(old, 'status.certificate') ?? []).length > 0) errors.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errors;
}

/** ValidateCertificateSigningRequestCreate. */
export function validateCsrCreate(obj: KObject): FieldError[] {
  return validateObject(obj, optionsFor(obj, undefined));
}

/** ValidateCertificateSigningRequestUpdate: a write of the object itself. */
export function validateCsrUpdate(obj: KObject, old: KObject): FieldError[] {
  return validateUpdateOf(obj, old, optionsFor(obj, old));
}

/** ValidateCertificateSigningRequestStatusUpdate: /status may set the certificate. */
export function validateCsrStatusUpdate(obj: KObject, old: KObject): FieldError[] {
  return validateUpdateOf(obj, old, { ...optionsFor(obj, old), allowSettingCertificate: true });
}

/** ValidateCertificateSigningRequestApprovalUpdate: /approval may set the Approved and Denied conditions. */
export function validateCsrApprovalUpdate(obj: KObject, old: KObject): FieldError[] {
  return validateUpdateOf(obj, old, { ...optionsFor(obj, old), allowSettingApprovalConditions: true });
}
