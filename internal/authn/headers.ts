// Reading request headers the way Go's http.Header does, whichever shape node handed them in.
import type { RequestHeaders } from './authenticator.ts';

/** Every value of header `name` (any case), in order; empty when absent. */
export function headerValues(headers: RequestHeaders, name: string): string[] {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

/** The first value of header `name`, or '' (Go's Header.Get). */
export function firstHeaderValue(headers: RequestHeaders, name: string): string {
  return headerValues(headers, name)[0] ?? '';
}
