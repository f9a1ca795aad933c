/** Name rules of Kubernetes (DNS-1123 subdomain and label, qualified names, label values). */

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN = `${LABEL}(\\.${LABEL})*`;
const labelRe = new RegExp(`^${LABEL}$`);
const subdomainRe = new RegExp(`^${SUBDOMAIN}$`);
const qualifiedNameRe = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Problems with a DNS-1123 subdomain (max 253 characters); empty when valid. */
export function dns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!subdomainRe.test(value)) {
    errs.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${SUBDOMAIN}')`,
    );
  }
  return errs;
}

/** Problems with a DNS-1123 label (max 63 characters); empty when valid. */
export function dns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelRe.test(value)) {
    errs.push(
      `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${LABEL}')`,
    );
  }
  return errs;
}

/** Problems with a name used as one URL path segment; empty when valid. */
export function pathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (value.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

/** Problems with a qualified name (`prefix/name` label and annotation keys); empty when valid. */
export function qualifiedName(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errs: string[] = [];
  if (parts.length > 2) return ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123Subdomain(prefix).map((e) => `prefix part ${e}`));
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !qualifiedNameRe.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  }
  return errs;
}

/** Problems with a label value (empty, or a qualified-name part of at most 63 characters). */
export function labelValue(value: string): string[] {
  if (value === '') return [];
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!qualifiedNameRe.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

/** IsValidPortName: what is wrong with an IANA service name used as a port name (nothing when valid). */
export function portName(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 15) problems.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(value)) problems.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(value)) problems.push('must contain at least one letter (a-z)');
  if (value.includes('--')) problems.push('must not contain consecutive hyphens (-)');
  if (value.startsWith('-') || value.endsWith('-')) problems.push('must not begin or end with a hyphen (-)');
  return problems;
}
