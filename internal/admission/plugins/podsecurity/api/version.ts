// Policy versions: `latest` or `v1.<minor>` (k8s.io/pod-security-admission/api: Version, ParseVersion).

/** A policy version: the minor number of a v1.x release, or 'latest' (newer than every release). */
export type PolicyVersion = number | 'latest';

/** What parsing a version gives: always a version to use, and an error message when the text was not one. */
export interface ParsedVersion {
  readonly version: PolicyVersion;
  readonly error?: string;
}

const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** Parses a version; anything but `latest` or `v1.<n>` gives 'latest' and an error, as kube does. */
export function parseVersion(text: string): ParsedVersion {
  if (text === 'latest') return { version: 'latest' };
  const match = versionPattern.exec(text);
  const minor = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (!Number.isSafeInteger(minor)) return { version: 'latest', error: 'must be "latest" or "v1.x"' };
  return { version: minor };
}

/** `latest` or `v1.<minor>`, as kube prints a version. */
export function formatVersion(version: PolicyVersion): string {
  return version === 'latest' ? 'latest' : `v1.${version}`;
}

/** Whether a check introduced at `minimumMinor` applies at `version` ('latest' takes every check). */
export function versionAtLeast(version: PolicyVersion, minimumMinor: number): boolean {
  return version === 'latest' || version >= minimumMinor;
}
