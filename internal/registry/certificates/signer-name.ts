// A CSR's spec.signerName as kube-apiserver 1.28 checks it (ValidateSignerName of
// pkg/apis/core/validation): `<domain>/<path>`, the domain at least two DNS-1123 labels, the path
// DNS-1123 subdomains joined by dots (room for `<namespace>.<name>`), 571 bytes at most.
import { invalidValue, required, tooLong, type FieldError } from '../schema/field-errors.ts';
import { dns1123Label, dns1123Subdomain } from '../schema/name-validation.ts';

const domainBytesMax = 253;
// A subdomain (a resource's name), a label (its namespace) and the dot between them.
const pathBytesMax = 253 + 63 + 1;
const signerNameBytesMax = domainBytesMax + pathBytesMax + 1;

/** The first label of `labels` that `check` refuses, with each of its problems; kube stops there so as not to repeat itself. */
function firstBadLabel(labels: readonly string[], check: (label: string) => string[]): { label: string; problems: string[] } | undefined {
  for (const label of labels) {
    const problems = check(label);
    if (problems.length > 0) return { label, problems };
  }
  return undefined;
}

/** The field errors of `signerName` at `path`, in kube's order. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName === '') return [required(path)];
  const segments = signerName.split('/');
  const [domain, rest] = segments;
  if (segments.length !== 2 || domain === undefined || rest === undefined) {
    return [invalidValue(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const errors: FieldError[] = [];
  if (Buffer.byteLength(domain) > domainBytesMax) errors.push(tooLong(path, domainBytesMax));
  const domainLabels = domain.split('.');
  const badDomain = firstBadLabel(domainLabels, dns1123Label);
  for (const problem of badDomain?.problems ?? []) errors.push(invalidValue(path, domain, `validating label ${JSON.stringify(badDomain?.label)}: ${problem}`));
  if (domainLabels.length < 2) errors.push(invalidValue(path, domain, 'should be a domain with at least two segments separated by dots'));
  const badPath = firstBadLabel(rest.split('.'), dns1123Subdomain);
  for (const problem of badPath?.problems ?? []) errors.push(invalidValue(path, rest, `validating label ${JSON.stringify(badPath?.label)}: ${problem}`));
  if (Buffer.byteLength(signerName) > signerNameBytesMax) errors.push(tooLong(path, signerNameBytesMax));
  return errors;
}
