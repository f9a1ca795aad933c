// The ConversionReview exchange (kube's webhook converter): which review version to send, the
// request, and the checks on the answer, each failure worded as kube words it (the caller puts
// "conversion webhook for <kind> failed: " before it).
import { parseGroupVersion } from './group-version.ts';
import { errorBodyQuotedBytesMax } from './limits.ts';

/** The ConversionReview versions this server speaks, in kube's order of preference within the CRD's list. */
export type ReviewVersion = 'v1' | 'v1beta1';

/** The first of the CRD's `conversionReviewVersions` this server speaks, or undefined. */
export function chooseReviewVersion(versions: readonly unknown[]): ReviewVersion | undefined {
  return versions.find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

/**
 * The review sent: the request (uid, desiredAPIVersion, objects) and, as kube's client serializes
 * it, an empty response beside it.
 */
export function conversionReview(apiDomain: string, version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly unknown[]): Record<string, unknown> {
  return {
    kind: 'ConversionReview',
    apiVersion: `apiextensions.${apiDomain}/${version}`,
    request: { uid, desiredAPIVersion, objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
}

type Entry = Record<string, unknown>;

function entry(value: unknown): Entry | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Entry) : undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The converted objects of a decoded answer, or an Error in kube's words: a v1 review must be
 * apiextensions/v1 ConversionReview with the request's uid (v1beta1 answers were never checked for
 * either); every review needs a response whose result.status is Success (else its message).
 */
export function convertedObjectsOf(apiDomain: string, version: ReviewVersion, uid: string, body: unknown): unknown[] {
  const review = entry(body) ?? {};
  if (version === 'v1') {
    const expected = `apiextensions.${apiDomain}/v1`;
    if (review.apiVersion !== expected || review.kind !== 'ConversionReview') {
      const got = parseGroupVersion(text(review.apiVersion));
      throw new Error(`expected webhook response of ${expected}, Kind=ConversionReview, got ${got.group}/${got.version}, Kind=${text(review.kind)}`);
    }
  }
  const response = entry(review.response);
  if (response === undefined) throw new Error('no response provided');
  if (version === 'v1' && text(response.uid) !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(text(response.uid))}`);
  const result = entry(response.result) ?? {};
  if (result.status !== 'Success') {
    const message = text(result.message);
    throw new Error(message !== '' ? message : `response.result.status was '${text(result.status)}', not 'Success'`);
  }
  const converted = response.convertedObjects;
  if (converted === undefined || converted === null) return [];
  if (!Array.isArray(converted)) throw new Error('json: cannot unmarshal convertedObjects into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension');
  return converted;
}

const genericMessages: Readonly<Record<number, string>> = {
  400: 'the server rejected our request for an unknown reason',
  401: 'the server has asked for the client to provide credentials',
  403: 'the server does not allow access to the requested resource',
  404: 'the server could not find the requested resource',
  405: 'the server does not allow this method on the requested resource',
  409: 'the server reported a conflict',
  422: 'the server rejected our request due to an error in our request',
  429: 'the server has received too many requests and has asked us to try again later',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
};

/** What client-go makes of a non-2xx answer: the Status it carries, else a generic message by code. */
export function unexpectedStatusMessage(status: number, body: Buffer): string {
  const bodyText = body.toString('utf8');
  try {
    const parsed = entry(JSON.parse(bodyText));
    if (parsed?.kind === 'Status' && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the generic message below.
  }
  const quoted = bodyText.trim().slice(0, errorBodyQuotedBytesMax);
  return genericMessages[status] ?? (status >= 500 ? `an error on the server (${JSON.stringify(quoted)}) has prevented the request from succeeding` : `the server responded with the status code ${status} but did not return more information`);
}
