// Reading a CertificateSigningRequest as JSON gives it: the byte fields (spec.request,
// status.certificate) are base64 text, and each may be absent (Go's nil) or empty.
import type { KObject } from '../schema/declaration.ts';
import { field } from '../schema/printers.ts';

type Json = Record<string, unknown>;

/** One entry of status.conditions, as far as the rules read it. */
export interface CsrCondition extends Json {
  type?: unknown;
  status?: unknown;
  lastUpdateTime?: unknown;
  lastTransitionTime?: unknown;
}

/** The condition types whose rules are their own. */
export const approved = 'Approved';
export const denied = 'Denied';
export const failed = 'Failed';

/** The bytes of a base64 field; null when absent (Go's nil slice). */
export function bytesAt(obj: unknown, path: string): Uint8Array | null {
  const value = field(obj, path);
  return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : null;
}

/**
 * spec.request as the text every reader parses (validation, admission, the controllers): one
 * character per byte (latin1), so all of them find the same PEM block in the same bytes.
 */
export function requestPemOf(obj: unknown): string {
  return Buffer.from(bytesAt(obj, 'spec.request') ?? []).toString('latin1');
}

/** Whether two byte fields hold the same bytes (absent and empty alike, as Go's bytes.Equal). */
export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  return Buffer.compare(Buffer.from(a ?? []), Buffer.from(b ?? [])) === 0;
}

/** A byte field's value as Go's %#v prints it in a field error (`[]byte{0x2d, 0xa}`). */
export function goBytesText(bytes: Uint8Array | null): string {
  if (bytes === null) return '[]byte(nil)';
  return `[]byte{${Array.from(bytes, (b) => `0x${b.toString(16)}`).join(', ')}}`;
}

/** The entries of status.conditions (non-objects left out: the schema has refused them already). */
export function conditionsOf(obj: unknown): CsrCondition[] {
  const list = field(obj, 'status.conditions');
  return Array.isArray(list) ? (list.filter((c) => typeof c === 'object' && c !== null && !Array.isArray(c)) as CsrCondition[]) : [];
}

/** The entries of spec.usages as given. */
export function usagesOf(obj: KObject): unknown[] {
  const list = field(obj, 'spec.usages');
  return Array.isArray(list) ? list : [];
}

/** The status object of `obj`, made when absent. */
export function statusOf(obj: KObject): Json {
  if (typeof obj.status !== 'object' || obj.status === null || Array.isArray(obj.status)) obj.status = {};
  return obj.status as Json;
}
