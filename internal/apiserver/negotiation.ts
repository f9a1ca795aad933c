// Content negotiation as kube-apiserver's (k8s.io/apiserver endpoints/handlers/negotiation): the
// offers of `Accept`, best first, each tried against the serializers in their order (JSON, YAML,
// Protobuf), an offer naming a view (`as=Table`) kept only where the endpoint allows that view.
import { StatusError } from '../registry/errors/status-error.ts';
import { protobufMediaType, protobufMediaTypeAlias } from './protobuf/media-types.ts';

/** What a response body shows: the object itself (JSON, YAML or Protobuf), a Table, or its metadata. */
export type ResponseFormat = 'json' | 'yaml' | 'table' | 'metadata';

/** A Protobuf media type a client may ask for: a response names the one it was asked in. */
export type ProtobufMediaType = typeof protobufMediaType | typeof protobufMediaTypeAlias;

/** How one response is written: its view and, for a Protobuf one, the media type to answer. */
export interface Negotiated {
  /** 'json' is the object itself; with `protobuf` set, the object in Protobuf. 'metadata' may be Protobuf too, 'table' never is. */
  readonly format: ResponseFormat;
  readonly protobuf?: ProtobufMediaType;
}

/** What an endpoint can answer besides JSON and YAML. */
export interface EndpointOffers {
  /** Table and PartialObjectMetadata views (get, list and watch of a resource itself). */
  readonly views: boolean;
  /**
   * Whether its kind has a Protobuf message; asked only when a Protobuf offer is weighed, so that
   * a JSON request pays nothing. The metadata view is Protobuf whatever the kind (kube's
   * StandardSerializers restrict only untransformed answers).
   */
  readonly protobuf: () => boolean;
}

interface MediaRange {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
  readonly specificity: number;
}

/** 2 for `type/subtype`, 1 for `type/*`, 0 for `*\/*`: among equal q-values the more specific offer goes first (goautoneg). */
function specificity(type: string): number {
  if (type === '*/*') return 0;
  return type.endsWith('/*') ? 1 : 2;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...rest] = part.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const p of rest) {
        const [k = '', v = ''] = p.split('=').map((s) => s.trim());
        params[k.toLowerCase()] = v;
      }
      const q = params.q === undefined ? 1 : Number(params.q);
      const lower = type.toLowerCase();
      return { type: lower, params, q: Number.isFinite(q) ? q : 0, specificity: specificity(lower) };
    })
    .filter((m) => m.type !== '' && m.q > 0)
    .sort((a, b) => b.q - a.q || b.specificity - a.specificity);
}

function isProtobufType(type: string): type is ProtobufMediaType {
  return type === protobufMediaType || type === protobufMediaTypeAlias;
}

/** A serializer a media range can select. */
type Encoding = 'json' | 'yaml' | ProtobufMediaType;

// Constant answers: negotiation runs on every request and must not allocate for a JSON one.
const everyEncoding: readonly Encoding[] = ['json', 'yaml', protobufMediaType];
const jsonEncoding: readonly Encoding[] = ['json'];
const yamlEncoding: readonly Encoding[] = ['yaml'];
const protobufEncoding: readonly Encoding[] = [protobufMediaType];
const aliasEncoding: readonly Encoding[] = [protobufMediaTypeAlias];
const noEncoding: readonly Encoding[] = [];

/** The serializers a media range matches, in kube's order: a wildcard matches each (JSON first). */
function encodingsOf(type: string): readonly Encoding[] {
  if (type === 'application/json') return jsonEncoding;
  if (type === 'application/yaml') return yamlEncoding;
  if (type === protobufMediaType) return protobufEncoding;
  if (type === protobufMediaTypeAlias) return aliasEncoding;
  return type === '*/*' || type === 'application/*' ? everyEncoding : noEncoding;
}

const plainJson: Negotiated = { format: 'json' };
const plainYaml: Negotiated = { format: 'yaml' };
const tableJson: Negotiated = { format: 'table' };
const metadataJson: Negotiated = { format: 'metadata' };

function metaGroupOk(m: MediaRange, apiDomain: string): boolean {
  const g = m.params.g;
  return (g === `meta.${apiDomain}` || g === 'meta.k8s.io') && (m.params.v === 'v1' || m.params.v === 'v1beta1');
}

/** The view an offer asks for in one encoding, or null when the endpoint cannot answer it so (AllowsMediaTypeTransform). */
function negotiatedOf(m: MediaRange, encoding: Encoding, apiDomain: string, offers: EndpointOffers): Negotiated | null {
  const as = m.params.as;
  if (encoding === 'yaml') return as === undefined ? plainYaml : null;
  if (encoding === 'json') {
    if (as === undefined) return plainJson;
    if (!offers.views || !metaGroupOk(m, apiDomain)) return null;
    if (as === 'Table') return tableJson;
    return as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList' ? metadataJson : null;
  }
  if (as === undefined) return offers.protobuf() ? { format: 'json', protobuf: encoding } : null;
  // A Table is JSON or YAML only; the metadata view has its message whatever the kind.
  if (!offers.views || !metaGroupOk(m, apiDomain)) return null;
  return as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList' ? { format: 'metadata', protobuf: encoding } : null;
}

/**
 * Chooses how a response is written from `Accept` (JSON when absent): the first offer, by q-value
 * then specificity, the endpoint can answer. Throws 406 when there is none.
 */
export function negotiateResponse(accept: string | undefined, apiDomain: string, offers: EndpointOffers): Negotiated {
  // What most JSON clients send (kubectl, client-go's default), answered without parsing.
  if (accept === undefined || accept === 'application/json' || accept === 'application/json, */*' || accept.trim() === '') return plainJson;
  for (const m of parseAccept(accept)) {
    for (const encoding of encodingsOf(m.type)) {
      const chosen = negotiatedOf(m, encoding, apiDomain, offers);
      if (chosen) return chosen;
    }
  }
  throw notAcceptable();
}

/** How an error's Status is written: JSON, YAML or Protobuf. */
export type ErrorEncoding = 'json' | 'yaml' | ProtobufMediaType;

/**
 * How a Status error is written (kube's ErrorNegotiated): the first offer of `Accept` without
 * parameters naming a view, in JSON, YAML or Protobuf (a Status has a message whatever the
 * resource); JSON when there is none, as kube writes an error it cannot negotiate.
 */
export function negotiateError(accept: string | undefined): ErrorEncoding {
  if (accept === undefined || accept.trim() === '') return 'json';
  for (const m of parseAccept(accept)) {
    if (m.params.as !== undefined || m.params.g !== undefined || m.params.v !== undefined) continue;
    const [first] = encodingsOf(m.type);
    if (first !== undefined) return first;
  }
  return 'json';
}

/** The `Content-Type` parameters naming the aggregated discovery document (`as`, `g`, `v`), as upstream writes them. */
export const aggregatedDiscoveryParams = ';g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** How `/api` or `/apis` answers: JSON, YAML or Protobuf, as the legacy document or the aggregated one. */
export interface DiscoveryFormat {
  readonly format: 'json' | 'yaml';
  readonly protobuf?: ProtobufMediaType;
  readonly aggregated: boolean;
}

/**
 * Chooses how `/api` and `/apis` answer from `Accept` (legacy JSON when absent): the first offer,
 * by q-value, that orch can write. An offer of `as=APIGroupDiscoveryList` in group
 * `apidiscovery.k8s.io`, version `v2beta1`, selects the aggregated document; an offer of any
 * other view is passed over, as upstream's DiscoveryEndpointRestrictions pass it over. Throws 406
 * when nothing is acceptable.
 */
export function negotiateDiscovery(accept: string | undefined): DiscoveryFormat {
  if (accept === undefined || accept.trim() === '') return { format: 'json', aggregated: false };
  for (const m of parseAccept(accept)) {
    const as = m.params.as;
    const aggregated = as !== undefined;
    if (aggregated && !(as === 'APIGroupDiscoveryList' && m.params.g === 'apidiscovery.k8s.io' && m.params.v === 'v2beta1')) continue;
    const [encoding] = encodingsOf(m.type);
    if (encoding === undefined) continue;
    return encoding === 'json' || encoding === 'yaml' ? { format: encoding, aggregated } : { format: 'json', protobuf: encoding, aggregated };
  }
  throw notAcceptable();
}

/** The media types kube-apiserver's 406 names: the serializers of its endpoints. */
const answeredMediaTypes = ['application/json', 'application/yaml', protobufMediaType];

/** The 406 error, naming the media types the server writes (kube's errNotAcceptable). */
export function notAcceptable(): StatusError {
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${answeredMediaTypes.join(', ')}`);
}

/** A request body's media type, without parameters, lowercased ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether a request body's media type (from mediaType) is Protobuf, by either name. */
export function isProtobufBody(type: string): type is ProtobufMediaType {
  return isProtobufType(type);
}

/** The 415 error for a body type this request does not take. */
export function unsupportedMediaType(got: string, accepted: readonly string[]): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`, {
    causes: [{ reason: 'UnsupportedMediaType', message: `unsupported media type "${got}"` }],
  });
}
