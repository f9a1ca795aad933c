// What a bootstrap token is, as kube 1.28's k8s.io/cluster-bootstrap defines it (token/api,
// util/secrets, util/tokens): the `<id>.<secret>` format, the Secret of type
// `bootstrap.kubernetes.io/token` named `bootstrap-token-<id>` that backs it, its keys, its
// expiration and its extra groups. Pure functions over a decoded Secret; the authenticator and the
// bootstrap controllers (tokencleaner, bootstrapsigner) share them.

/** The Secret type of bootstrap tokens. */
export const bootstrapTokenSecretType = 'bootstrap.kubernetes.io/token';
/** A token's Secret is named this prefix and the token id. */
export const bootstrapTokenSecretPrefix = 'bootstrap-token-';

/**
 * The namespaces whose token Secrets count, in order of preference: kube-system (where kubeadm
 * writes them) first, then orch's system namespace. When both hold `bootstrap-token-<id>`, the
 * kube-system one decides for authentication and signing.
 */
export const bootstrapTokenNamespaces: readonly string[] = ['kube-system', 'orch-system'];

/** The Secret's data keys. */
export const bootstrapTokenKeys = {
  id: 'token-id',
  secret: 'token-secret',
  expiration: 'expiration',
  description: 'description',
  extraGroups: 'auth-extra-groups',
  usageAuthentication: 'usage-bootstrap-authentication',
  usageSigning: 'usage-bootstrap-signing',
} as const;

/** A bootstrap token's user name is this prefix and the token id. */
export const bootstrapUserPrefix = 'system:bootstrap:';
/** The group every bootstrap token is in. */
export const bootstrapDefaultGroup = 'system:bootstrappers';

const tokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const secretNamePattern = /^bootstrap-token-([a-z0-9]{6})$/;
const extraGroupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
// Go's time.Parse(time.RFC3339): date, `T`, time, optional fraction, `Z` or a numeric offset.
const rfc3339Pattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Milliseconds since the epoch of an RFC 3339 time as Go's time.Parse reads it, or NaN. Date.parse
 * alone would roll February 31 over into March and take 24:00: Go refuses both, and a token whose
 * expiration Go cannot read must count as expired, not as valid.
 */
function parseRfc3339Ms(text: string): number {
  const m = rfc3339Pattern.exec(text);
  if (m === null) return Number.NaN;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const real = calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
  return real && hour < 24 && minute < 60 && second < 60 ? Date.parse(text) : Number.NaN;
}

/** A bootstrap token's Secret with its data decoded: what every reader of token Secrets looks at. */
export interface BootstrapTokenSecret {
  readonly namespace: string;
  readonly name: string;
  /** The uid (the cleaner's delete precondition). */
  readonly uid: string;
  readonly type: string;
  /** RFC 3339, set once deletion has begun. */
  readonly deletionTimestamp?: string;
  /** `data`, each value decoded from base64 as UTF-8; absent keys are absent. */
  readonly data: Readonly<Record<string, string>>;
}

/** The parts of a bearer token of the bootstrap format, or undefined when it is not one. */
export function parseBootstrapToken(token: string): { readonly id: string; readonly secret: string } | undefined {
  const match = tokenPattern.exec(token);
  return match === null ? undefined : { id: match[1]!, secret: match[2]! };
}

/** The token id a Secret's name carries (`bootstrap-token-<id>`), or undefined for any other name. */
export function tokenIdOfSecretName(name: string): string | undefined {
  return secretNamePattern.exec(name)?.[1];
}

/**
 * Whether the token has expired at `nowMs`, and if not how long it has left (undefined: it never
 * expires). An `expiration` that is not RFC 3339 counts as expired, as kube's GetExpiration says.
 */
export function tokenExpiration(secret: BootstrapTokenSecret, nowMs: number): { readonly expired: boolean; readonly remainingMs?: number } {
  const text = secret.data[bootstrapTokenKeys.expiration] ?? '';
  if (text === '') return { expired: false };
  const atMs = parseRfc3339Ms(text);
  if (Number.isNaN(atMs)) return { expired: true };
  const remainingMs = atMs - nowMs;
  return remainingMs <= 0 ? { expired: true } : { expired: false, remainingMs };
}

/**
 * `system:bootstrappers` and the token's `auth-extra-groups`, deduplicated and sorted as kube's
 * GetGroups answers; undefined when any extra group is not `system:bootstrappers:<name>` (the token
 * is then refused).
 */
export function bootstrapTokenGroups(secret: BootstrapTokenSecret): string[] | undefined {
  const groups = new Set([bootstrapDefaultGroup]);
  const extra = secret.data[bootstrapTokenKeys.extraGroups] ?? '';
  if (extra !== '') {
    for (const group of extra.split(',')) {
      if (!extraGroupPattern.test(group)) return undefined;
      groups.add(group);
    }
  }
  return [...groups].sort();
}

/**
 * The id and secret of a token that may sign cluster-info at `nowMs` (kube's
 * validateSecretForSigning): named `bootstrap-token-<id>` with `token-id` the same id, a
 * non-empty `token-secret`, not expired, `usage-bootstrap-signing: "true"`. Undefined otherwise.
 */
export function signingToken(secret: BootstrapTokenSecret, nowMs: number): { readonly id: string; readonly secret: string } | undefined {
  const nameId = tokenIdOfSecretName(secret.name);
  const id = secret.data[bootstrapTokenKeys.id] ?? '';
  const tokenSecret = secret.data[bootstrapTokenKeys.secret] ?? '';
  if (nameId === undefined || id === '' || id !== nameId || tokenSecret === '') return undefined;
  if (tokenExpiration(secret, nowMs).expired) return undefined;
  if (secret.data[bootstrapTokenKeys.usageSigning] !== 'true') return undefined;
  return { id, secret: tokenSecret };
}

/** The shape of a stored Secret this module reads (a KObject satisfies it). */
export interface StoredSecret {
  readonly metadata: { readonly namespace?: string; readonly name?: string; readonly uid?: string; readonly deletionTimestamp?: string };
  readonly type?: unknown;
  readonly data?: unknown;
}

/** A stored Secret with its data decoded from base64; values that are not strings are dropped. */
export function decodeBootstrapTokenSecret(object: StoredSecret): BootstrapTokenSecret {
  const raw = typeof object.data === 'object' && object.data !== null ? (object.data as Record<string, unknown>) : {};
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') data[key] = Buffer.from(value, 'base64').toString('utf8');
  const { metadata } = object;
  return {
    namespace: metadata.namespace ?? '',
    name: metadata.name ?? '',
    uid: metadata.uid ?? '',
    type: typeof object.type === 'string' ? object.type : '',
    ...(metadata.deletionTimestamp === undefined ? {} : { deletionTimestamp: metadata.deletionTimestamp }),
    data,
  };
}
