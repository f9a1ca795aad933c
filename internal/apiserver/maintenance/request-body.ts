/**
 * The bodies of the maintenance calls: JSON objects only, as large as any request body may be,
 * every field known and checked. A bad body is a 422 Invalid naming its fields (a body that is no JSON object, a 400), never a 500.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { decodeJson, readBody, type BodySource } from '../body.ts';
import { badRequest, StatusError, type StatusCause } from '../../registry/errors/status-error.ts';
import { dns1123Label, dns1123Subdomain } from '../../registry/schema/name-validation.ts';
import { fieldProblemsNamedMax } from '../limits.ts';
import { elide } from '../respond.ts';
import { invalidBody } from './errors.ts';

/** `POST /orch/v1/members`. */
export interface AddMemberRequest {
  readonly name: string;
  readonly peerAddress: string;
  readonly learner: boolean;
}

/** `POST /orch/v1/leader`. */
export interface TransferLeaderRequest {
  readonly target: string;
}

/** The JSON object of a request body: 413/408 (BodyRefusedError), 415 not JSON, 400 not an object or repeating a key. */
export async function readJsonObject(req: BodySource, bodyTimeoutMs: number): Promise<Record<string, unknown>> {
  const type = String(req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  const bytes = await readBody(req, bodyTimeoutMs);
  if (type !== 'application/json') throw new StatusError(415, 'UnsupportedMediaType', `the maintenance API takes application/json bodies, not "${type ?? ''}"`);
  const decoded = decodeJson(bytes);
  const value = decoded.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the request body must be a JSON object');
  if (decoded.duplicateCount > 0) throw invalidBody('the request body', decoded.duplicates.map((field) => ({ reason: 'FieldValueDuplicate', field: elide(field), message: 'repeated' })));
  return value as Record<string, unknown>;
}

/** Causes for fields `body` has beyond `known` (the first fieldProblemsNamedMax, names cut short: a body may hold thousands, each long). */
function unknownFields(body: Record<string, unknown>, known: readonly string[]): StatusCause[] {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  return unknown.slice(0, fieldProblemsNamedMax).map((field) => ({ reason: 'FieldValueNotSupported', field: elide(field), message: 'unknown field' }));
}

/** A required string field: the value, or a cause. */
function requiredString(body: Record<string, unknown>, field: string, causes: StatusCause[]): string | undefined {
  const value = body[field];
  if (value === undefined || value === '') causes.push({ reason: 'FieldValueRequired', field, message: 'Required value' });
  else if (typeof value !== 'string') causes.push({ reason: 'FieldValueTypeInvalid', field, message: 'must be a string' });
  else return value;
  return undefined;
}

/** Causes for a member name that is no DNS-1123 label. */
function checkName(name: string | undefined, field: string, causes: StatusCause[]): void {
  if (name === undefined) return;
  for (const problem of dns1123Label(name)) causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(elide(name))}: ${problem}` });
}

/** Why `address` is no host:port (host a DNS name, an IPv4 address or a bracketed IPv6 one), or null. */
export function hostPortProblem(address: string): string | null {
  const match = /^(\[[^\]]*\]|[^:[\]]*):(\d{1,5})$/.exec(address);
  if (match === null) return 'must be host:port (an IPv6 host in brackets)';
  const host = match[1] ?? '';
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return 'the port must be from 1 to 65535';
  if (host.startsWith('[')) return isIPv6(host.slice(1, -1)) ? null : 'the host in brackets must be an IPv6 address';
  if (isIPv4(host)) return null;
  return dns1123Subdomain(host.toLowerCase()).length === 0 ? null : 'the host must be a DNS name or an IP address';
}

/** The add-member body: `name` a DNS label, `peerAddress` host:port, `learner` a boolean (default true). */
export function parseAddMember(body: Record<string, unknown>): AddMemberRequest {
  const causes = unknownFields(body, ['name', 'peerAddress', 'learner']);
  const name = requiredString(body, 'name', causes);
  checkName(name, 'name', causes);
  const peerAddress = requiredString(body, 'peerAddress', causes);
  const problem = peerAddress === undefined ? null : hostPortProblem(peerAddress);
  if (problem !== null) causes.push({ reason: 'FieldValueInvalid', field: 'peerAddress', message: `Invalid value: ${JSON.stringify(elide(peerAddress ?? ''))}: ${problem}` });
  const learner = body.learner ?? true;
  if (typeof learner !== 'boolean') causes.push({ reason: 'FieldValueTypeInvalid', field: 'learner', message: 'must be a boolean' });
  if (causes.length > 0 || name === undefined || peerAddress === undefined || typeof learner !== 'boolean') throw invalidBody('the member', causes);
  return { name, peerAddress, learner };
}

/** The leadership-transfer body: `target` a DNS label. */
export function parseTransferLeader(body: Record<string, unknown>): TransferLeaderRequest {
  const causes = unknownFields(body, ['target']);
  const target = requiredString(body, 'target', causes);
  checkName(target, 'target', causes);
  if (causes.length > 0 || target === undefined) throw invalidBody('the leadership transfer', causes);
  return { target };
}
