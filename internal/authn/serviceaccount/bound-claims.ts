// The private claim of bound (TokenRequest) service-account tokens, as kube writes it.

/** A reference to an object by name and uid. */
export interface ObjectReferenceClaim {
  readonly name: string;
  readonly uid: string;
}

/** The `kubernetes.io` claim. */
export interface KubernetesClaim {
  readonly namespace: string;
  readonly serviceaccount: ObjectReferenceClaim;
  readonly pod?: ObjectReferenceClaim;
  readonly secret?: ObjectReferenceClaim;
  /** Set on tokens whose expiry was extended: after this time kube warns that the token is stale. */
  readonly warnafter?: number;
}

/** The claim's name. */
export const kubernetesClaimName = 'kubernetes.io';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readReference(value: unknown): ObjectReferenceClaim | undefined | 'malformed' {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || typeof value['name'] !== 'string' || typeof value['uid'] !== 'string') return 'malformed';
  return { name: value['name'], uid: value['uid'] };
}

/** Reads the `kubernetes.io` claim; a string says what is wrong. */
export function readKubernetesClaim(claims: Readonly<Record<string, unknown>>): KubernetesClaim | string {
  const raw = claims[kubernetesClaimName];
  if (!isRecord(raw)) return 'token could not be validated: kubernetes.io claim is missing';
  const namespace = raw['namespace'];
  const serviceaccount = readReference(raw['serviceaccount']);
  const pod = readReference(raw['pod']);
  const secret = readReference(raw['secret']);
  if (typeof namespace !== 'string' || namespace === '') return 'namespace claim is missing';
  if (serviceaccount === undefined || serviceaccount === 'malformed' || serviceaccount.name === '') return 'service account claim is missing';
  if (pod === 'malformed' || secret === 'malformed') return 'bound object claim is malformed';
  const warnafter = raw['warnafter'];
  return {
    namespace,
    serviceaccount,
    ...(pod === undefined ? {} : { pod }),
    ...(secret === undefined ? {} : { secret }),
    ...(typeof warnafter === 'number' ? { warnafter } : {}),
  };
}
