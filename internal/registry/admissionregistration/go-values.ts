// Values as kube-apiserver's field errors print them (Go's %#v of a typed slice) and the DNS-1035
// label rule admissionReviewVersions must follow: what only this group's validation needs.

/** A Go slice of a named string type as `%#v` prints it: `[]string{"a", "b"}`. */
export function goSlice(typeName: string, values: readonly unknown[]): string {
  return `[]${typeName}{${values.map((v) => JSON.stringify(String(v))).join(', ')}}`;
}

const dns1035 = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035Re = new RegExp(`^${dns1035}$`);

/** IsDNS1035Label: what is wrong with `value` as a DNS-1035 label (nothing when valid). */
export function dns1035Label(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push('must be no more than 63 characters');
  if (!dns1035Re.test(value)) {
    problems.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${dns1035}')`,
    );
  }
  return problems;
}
