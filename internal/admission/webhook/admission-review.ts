// The AdmissionReview a webhook receives and the checks on the one it answers (kube's
// webhook/request package): v1 or v1beta1, whichever the webhook lists first; the same request
// fields in both; v1 answers must echo the uid and the apiVersion and kind, v1beta1 answers not.
import type { KObject } from '../../registry/schema/declaration.ts';
import type { AdmissionAttributes } from '../attributes.ts';
import type { ResultStatus } from './errors.ts';
import type { WebhookInvocation } from './webhook-types.ts';

/** The AdmissionReview versions this server sends, in the order it prefers them. */
export type ReviewVersion = 'v1' | 'v1beta1';

/** The first of `versions` this server sends, or undefined when it knows none of them. */
export function chooseReviewVersion(versions: readonly string[] | undefined): ReviewVersion | undefined {
  return (versions ?? []).find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

/** What the request carries besides the attributes: the objects as sent (in the invocation's version). */
export interface ReviewObjects {
  readonly object: KObject | undefined;
  readonly oldObject: KObject | undefined;
}

const optionsKinds: Partial<Record<AdmissionAttributes['operation'], string>> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

/**
 * The options as kube encodes them: a typed object with apiVersion meta.<domain>/v1 and its kind;
 * null for CONNECT, whose options kube sends as the object instead.
 */
function encodedOptions(attributes: AdmissionAttributes, apiDomain: string): Record<string, unknown> | null {
  const options = attributes.operationOptions;
  const kind = optionsKinds[attributes.operation];
  return options === undefined || kind === undefined ? null : { apiVersion: `meta.${apiDomain}/v1`, kind, ...options };
}

/** The request's object: for CONNECT, kube's connect handler puts the connect options (PodExecOptions...) there. */
function requestObject(attributes: AdmissionAttributes, object: KObject | undefined): unknown {
  if (object !== undefined) return object;
  return attributes.operation === 'CONNECT' && attributes.operationOptions !== undefined ? { ...attributes.operationOptions } : null;
}

/** authenticationv1.UserInfo: every field omitted when empty. */
function userInfo(attributes: AdmissionAttributes): Record<string, unknown> {
  const u = attributes.userInfo;
  return {
    ...(u.username === '' ? {} : { username: u.username }),
    ...(u.uid === '' ? {} : { uid: u.uid }),
    ...(u.groups.length === 0 ? {} : { groups: [...u.groups] }),
    ...(Object.keys(u.extra).length === 0 ? {} : { extra: Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]])) }),
  };
}

/** The AdmissionReview body (both versions have the same request shape), fields in kube's order. */
export function createAdmissionReview(version: ReviewVersion, uid: string, attributes: AdmissionAttributes, invocation: WebhookInvocation, objects: ReviewObjects, apiDomain: string): Record<string, unknown> {
  const request: Record<string, unknown> = {
    uid,
    kind: { group: invocation.kind.group, version: invocation.kind.version, kind: invocation.kind.kind },
    resource: { group: invocation.resource.group, version: invocation.resource.version, resource: invocation.resource.resource },
    ...(invocation.subresource === '' ? {} : { subResource: invocation.subresource }),
    requestKind: { group: attributes.kind.group, version: attributes.kind.version, kind: attributes.kind.kind },
    requestResource: { group: attributes.resource.group, version: attributes.resource.version, resource: attributes.resource.resource },
    ...(attributes.subresource === '' ? {} : { requestSubResource: attributes.subresource }),
    ...(attributes.name === '' ? {} : { name: attributes.name }),
    ...(attributes.namespace === '' ? {} : { namespace: attributes.namespace }),
    operation: attributes.operation,
    userInfo: userInfo(attributes),
    object: requestObject(attributes, objects.object),
    oldObject: objects.oldObject ?? null,
    dryRun: attributes.dryRun,
    options: encodedOptions(attributes, apiDomain),
  };
  return { kind: 'AdmissionReview', apiVersion: `admission.${apiDomain}/${version}`, request };
}

/** What a valid answer says (kube's request.AdmissionResponse). */
export interface AdmissionResponse {
  readonly allowed: boolean;
  /** The decoded patch bytes ('' when none). */
  readonly patch: string;
  /** '' when the answer has no patch. */
  readonly patchType: string;
  readonly result: ResultStatus | undefined;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

type Entry = Record<string, unknown>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A []byte field: base64 text decoded, or the decoding error Go's JSON decoder gives. */
function decodeBytes(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw new Error('illegal base64 data in response.patch');
  return Buffer.from(value, 'base64').toString('utf8');
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function stringMap(value: unknown): Record<string, string> {
  return isEntry(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
}

/** The patch fields of a v1 answer: both or neither (mutating); none at all (validating). */
function v1Patch(response: Entry, mutating: boolean): { patch: string; patchType: string } {
  const patch = decodeBytes(response.patch);
  const hasType = response.patchType !== undefined && response.patchType !== null;
  if (!mutating) {
    if (patch !== '') throw new Error('validating webhook may not return response.patch');
    if (hasType) throw new Error('validating webhook may not return response.patchType');
    return { patch: '', patchType: '' };
  }
  if (patch !== '' && !hasType) throw new Error('webhook returned response.patch but not response.patchType');
  if (patch === '' && hasType) throw new Error('webhook returned response.patchType but not response.patch');
  const patchType = hasType ? String(response.patchType) : '';
  if (hasType && patchType === '') throw new Error(`webhook returned invalid response.patchType of ""`);
  return { patch, patchType };
}

/**
 * VerifyAdmissionResponse: the answer's fields, or an Error saying what is wrong with it (the
 * caller words it as "received invalid webhook response").
 */
export function verifyAdmissionResponse(uid: string, mutating: boolean, version: ReviewVersion, review: unknown, apiDomain: string): AdmissionResponse {
  const body = isEntry(review) ? review : {};
  const response = body.response;
  if (!isEntry(response)) throw new Error('webhook response was absent');
  let patch = { patch: '', patchType: '' };
  if (version === 'v1') {
    if (response.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response.uid === 'string' ? response.uid : '')}`);
    const expected = `admission.${apiDomain}/v1, Kind=AdmissionReview`;
    const got = `${gvkText(body.apiVersion)}, Kind=${typeof body.kind === 'string' ? body.kind : ''}`;
    if (got !== expected) throw new Error(`expected webhook response of ${expected}, got ${got}`);
    patch = v1Patch(response, mutating);
  } else if (mutating) {
    // v1beta1 never checked the patch type; only JSON Patch exists, so it is pinned.
    const bytes = decodeBytes(response.patch);
    patch = { patch: bytes, patchType: bytes === '' ? '' : 'JSONPatch' };
  }
  return {
    allowed: response.allowed === true,
    ...patch,
    result: isEntry(response.status) ? (response.status as ResultStatus) : undefined,
    warnings: stringList(response.warnings),
    auditAnnotations: stringMap(response.auditAnnotations),
  };
}

/** An apiVersion as Go's GroupVersionKind.String shows its group/version (`/v1` for core). */
function gvkText(apiVersion: unknown): string {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  return text.includes('/') ? text : `/${text}`;
}
