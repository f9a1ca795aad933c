// Reading registered JWT claims (RFC 7519) without trusting their types.

/** A NumericDate claim in seconds, or undefined when absent; NaN when present but not a number. */
export function numericDateClaim(claims: Readonly<Record<string, unknown>>, name: 'exp' | 'nbf' | 'iat'): number | undefined {
  const value = claims[name];
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN;
}

/** The `aud` claim as a list (a single string is a list of one); undefined when malformed. */
export function audienceClaim(claims: Readonly<Record<string, unknown>>): string[] | undefined {
  const value = claims['aud'];
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return undefined;
}

/** A string claim, or undefined when absent or not a string. */
export function stringClaim(claims: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' ? value : undefined;
}
