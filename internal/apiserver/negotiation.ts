import { StatusError } from '../registry/errors/status-error.ts';

/** How a response body is serialized. */
export type ResponseFormat = 'json' | 'yaml' | 'table' | 'metadata';

interface MediaRange {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
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
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((m) => m.type !== '' && m.q > 0)
    .sort((a, b) => b.q - a.q);
}

function metaGroupOk(g: string | undefined, apiDomain: string): boolean {
  return g === `meta.${apiDomain}` || g === 'meta.k8s.io';
}

/** The serialization a media range names, ignoring its parameters (null: none orch writes). */
function encodingOf(m: MediaRange): 'json' | 'yaml' | null {
  if (m.type === 'application/yaml') return 'yaml';
  return m.type === 'application/json' || m.type === 'application/*' || m.type === '*/*' ? 'json' : null;
}

function formatOf(m: MediaRange, apiDomain: string, allowTable: boolean): ResponseFormat | null {
  const as = m.params.as;
  const encoding = encodingOf(m);
  if (encoding === 'yaml') return as === undefined ? 'yaml' : null;
  if (encoding === null) return null;
  if (as === undefined) return 'json';
  if (!allowTable || !metaGroupOk(m.params.g, apiDomain) || (m.params.v !== 'v1' && m.params.v !== 'v1beta1')) return null;
  if (as === 'Table') return 'table';
  if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return 'metadata';
  return null;
}

/**
 * Chooses the response format from `Accept` (JSON when absent). Table and metadata views only for
 * get and list. Throws 406 when nothing acceptable is offered.
 */
export function negotiateResponse(accept: string | undefined, apiDomain: string, allowTable: boolean): ResponseFormat {
  if (accept === undefined || accept.trim() === '') return 'json';
  for (const m of parseAccept(accept)) {
    const f = formatOf(m, apiDomain, allowTable);
    if (f) return f;
  }
  throw notAcceptable();
}

/** The `Content-Type` parameters naming the aggregated discovery document (`as`, `g`, `v`), as upstream writes them. */
export const aggregatedDiscoveryParams = ';g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** How `/api` or `/apis` answers: JSON or YAML, as the legacy document or the aggregated one. */
export interface DiscoveryFormat {
  readonly format: 'json' | 'yaml';
  readonly aggregated: boolean;
}

/**
 * Chooses how `/api` and `/apis` answer from `Accept` (legacy JSON when absent): the first offer,
 * by q-value, that orch can write. An offer of `as=APIGroupDiscoveryList` in group
 * `apidiscovery.k8s.io`, version `v2beta1`, selects the aggregated document; an offer in a media
 * type orch does not write (Protobuf) or of any other view is passed over, as upstream's
 * negotiation passes over unsupported types. Throws 406 when nothing is acceptable.
 */
export function negotiateDiscovery(accept: string | undefined): DiscoveryFormat {
  if (accept === undefined || accept.trim() === '') return { format: 'json', aggregated: false };
  for (const m of parseAccept(accept)) {
    const format = encodingOf(m);
    if (format === null) continue;
    if (m.params.as === undefined) return { format, aggregated: false };
    if (m.params.as === 'APIGroupDiscoveryList' && m.params.g === 'apidiscovery.k8s.io' && m.params.v === 'v2beta1') return { format, aggregated: true };
  }
  throw notAcceptable();
}

/** The 406 error. */
export function notAcceptable(): StatusError {
  return new StatusError(406, 'NotAcceptable', 'the server was unable to respond with a content type that the client supports');
}

/** A request body's media type, without parameters, lowercased ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The 415 error for a body type this request does not take. */
export function unsupportedMediaType(got: string, accepted: readonly string[]): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`, {
    causes: [{ reason: 'UnsupportedMediaType', message: `unsupported media type "${got}"` }],
  });
}
