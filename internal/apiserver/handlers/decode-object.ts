import { auditRequestObject } from '../../audit/auditor.ts';
import { badRequest, invalid } from '../../registry/errors/status-error.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import { toCauses } from '../../registry/schema/field-errors.ts';
import { checkSchema, objectSchema } from '../../registry/schema/schema-check.ts';
import { decodeJson, decodeProtobufBody, decodeYaml, readBody, type DecodedBody } from '../body.ts';
import { findInexactInteger, inexactIntegerError, withLiteral } from '../inexact-integers.ts';
import { fieldProblemsNamedMax, warningsMax } from '../limits.ts';
import { isProtobufBody, mediaType, unsupportedMediaType } from '../negotiation.ts';
import { elide } from '../respond.ts';
import { objectBodyMediaTypes, servesProtobuf } from './protobuf-served.ts';
import { fieldValidationOf, type RequestContext } from './request-context.ts';

/**
 * Reads and decodes a JSON, YAML or Protobuf body (POST/PUT), each to the same JSON form, checked
 * alike afterwards; 415 for other types, and for Protobuf where the endpoint's kind has no message.
 */
export async function readDecodedBody(ctx: RequestContext): Promise<DecodedBody> {
  const type = mediaType(ctx.headers['content-type']);
  const protobuf = isProtobufBody(type);
  const known = type === '' || type === 'application/json' || type === 'application/yaml' || type === 'text/yaml';
  if (!known && !(protobuf && servesProtobuf(ctx.served, ctx.info.subresource))) throw unsupportedMediaType(type, objectBodyMediaTypes(ctx.served, ctx.info.subresource));
  const bytes = await readBody(ctx.body, ctx.bodyTimeoutMs);
  if (bytes.length === 0) throw badRequest('the request body is empty: an object is required');
  if (protobuf) return decodeProtobufBody(bytes);
  return type === 'application/yaml' || type === 'text/yaml' ? decodeYaml(bytes) : decodeJson(bytes);
}

function checkTypeMeta(ctx: RequestContext, obj: Record<string, unknown>): void {
  const { served } = ctx;
  const kind = served.decl.kind;
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = served.apiVersion;
  if (obj.kind === undefined || obj.kind === '') obj.kind = kind;
  if (obj.apiVersion !== served.apiVersion) throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${served.apiVersion})`);
  if (obj.kind !== kind) throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind}) of ${ctx.info.resource}`);
}

function checkNamespace(ctx: RequestContext, obj: KObject): void {
  const ns = ctx.info.namespace;
  if (!ctx.served.decl.namespaced) return;
  const bodyNs = obj.metadata.namespace;
  if (bodyNs !== undefined && bodyNs !== '' && ns !== undefined && bodyNs !== ns) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/**
 * Checks a decoded object against the resource: type meta, namespace, unknown and duplicate
 * fields per `fieldValidation` (pruning unknown ones), and a built-in kind's field types. A built-in
 * kind's null list items and map values become Go's zero values (checkSchema's goNulls), except in
 * an applied configuration (`applied`), which kube-apiserver reads untyped: there null removes.
 */
export function checkObject(ctx: RequestContext, decoded: DecodedBody, applied = false): KObject {
  const value = decoded.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the request body must be a JSON or YAML object');
  const obj = value as Record<string, unknown>;
  checkTypeMeta(ctx, obj);
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) throw badRequest('metadata must be an object');
  const kobj = obj as KObject;
  checkNamespace(ctx, kobj);
  const mode = fieldValidationOf(ctx.query);
  const schema = objectSchema(ctx.served.decl);
  // Found before the schema check turns numbers given for quantities into text, refused after
  // it, so that a value Go refuses too (an int32 out of range) gets Go's own error.
  const inexact = findInexactInteger(kobj, decoded.inexactIntegers);
  const result = checkSchema(kobj, schema, mode !== 'Strict', ctx.served.decl.kind, ctx.served.decl.custom !== true && !applied);
  // A built-in kind decodes into Go types: a value they cannot hold is a decode error (400), as
  // kube-apiserver's typed decoder answers, before any field validation.
  const [firstDecodeError] = result.decodeErrors;
  const decodeError = firstDecodeError === undefined ? undefined : withLiteral(firstDecodeError, decoded.inexactIntegers);
  if (decodeError !== undefined && ctx.served.decl.custom !== true) {
    const { kind } = ctx.served.decl;
    throw badRequest(elide(`${kind} in version "${ctx.served.version}" cannot be handled as a ${kind}: ${decodeError}`, 1024));
  }
  if (inexact !== undefined) throw inexactIntegerError(inexact, ctx.served.decl.kind, ctx.served.version);
  const all = [...result.unknownFields.map((f) => `unknown field "${f}"`), ...decoded.duplicates.map((f) => `duplicate field "${f}"`)];
  const total = result.unknownFields.length + decoded.duplicateCount;
  if (mode === 'Strict' && total > 0) {
    const named = all.slice(0, fieldProblemsNamedMax).map((p) => elide(p));
    throw badRequest(`strict decoding error: ${withCount(named, total).join(', ')}`, named.map((p) => ({ reason: 'FieldValueInvalid', message: p })));
  }
  // The count takes the last of the warnings a response may carry.
  if (mode === 'Warn') for (const p of withCount(all.slice(0, total > warningsMax ? warningsMax - 1 : warningsMax), total)) ctx.out.warn(p);
  // A custom kind's values are checked against its schema after defaulting, by its strategy (kube
  // validates custom objects after its structural defaulting), all errors in one answer.
  if (ctx.served.decl.custom === true) return kobj;
  const name = kobj.metadata.name ?? '';
  if (result.typeErrors.length > 0) throw invalid(ctx.served.decl.kind, ctx.served.group, typeof name === 'string' ? name : '', toCauses(result.typeErrors));
  return kobj;
}

/** `named` problems, then how many of `total` they leave out. */
function withCount(named: readonly string[], total: number): string[] {
  return total > named.length ? [...named, `and ${total - named.length} more unknown or duplicate fields`] : [...named];
}

/** Reads, decodes and checks the object of a POST or PUT; the request's audit records it (kube's LogRequestObject). */
export async function readObject(ctx: RequestContext): Promise<KObject> {
  const obj = checkObject(ctx, await readDecodedBody(ctx));
  auditRequestObject(ctx.headers, obj);
  return obj;
}
