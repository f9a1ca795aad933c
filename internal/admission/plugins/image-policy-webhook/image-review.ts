// The ImageReview exchanged with the image policy back end (imagepolicy.<domain>/v1alpha1): the
// spec we send (images, the pod's `*.image-policy.<domain>/*` annotations, the namespace) and
// the status we read back (allowed, reason, audit annotations).

/** What the back end is asked about. Serialised with Go's field order and omitempty. */
export interface ImageReviewSpec {
  readonly containers: readonly { readonly image: string }[];
  readonly annotations: Readonly<Record<string, string>>;
  readonly namespace: string;
}

/** What the back end answered. */
export interface ImageReviewStatus {
  readonly allowed: boolean;
  readonly reason: string;
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The spec as JSON, keys in a fixed order (annotations sorted, as Go writes maps): also the cache key. */
export function specJson(spec: ImageReviewSpec): string {
  const annotations = Object.fromEntries(Object.entries(spec.annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({
    ...(spec.containers.length > 0 ? { containers: spec.containers.map((c) => ({ image: c.image })) } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(spec.namespace !== '' ? { namespace: spec.namespace } : {}),
  });
}

/** The request body: an ImageReview with `spec` (status left to the back end). */
export function imageReviewBody(spec: ImageReviewSpec, apiDomain: string): string {
  return `{"kind":"ImageReview","apiVersion":"imagepolicy.${apiDomain}/v1alpha1","metadata":{"creationTimestamp":null},"spec":${specJson(spec)},"status":{"allowed":false}}`;
}

/** Reads the status of an ImageReview answer; throws an Error when the body is not one. */
export function parseImageReviewStatus(body: string): ImageReviewStatus {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new Error(`the image policy back end's answer is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(parsed)) throw new Error("the image policy back end's answer is not an ImageReview");
  const status = isRecord(parsed['status']) ? parsed['status'] : {};
  const audit = isRecord(status['auditAnnotations']) ? status['auditAnnotations'] : {};
  return {
    allowed: status['allowed'] === true,
    reason: typeof status['reason'] === 'string' ? status['reason'] : '',
    auditAnnotations: Object.fromEntries(Object.entries(audit).filter((e): e is [string, string] => typeof e[1] === 'string')),
  };
}
