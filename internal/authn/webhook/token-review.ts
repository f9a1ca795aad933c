// The TokenReview exchanged with a token webhook (authentication.k8s.io v1beta1 or v1; the
// fields we use are the same in both).

/** --authentication-token-webhook-version. */
export type TokenReviewVersion = 'v1beta1' | 'v1';

/** The request body we POST. */
export function tokenReviewRequest(version: TokenReviewVersion, token: string, audiences: readonly string[]): string {
  return JSON.stringify({
    apiVersion: `authentication.k8s.io/${version}`,
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token, ...(audiences.length > 0 ? { audiences } : {}) },
    status: { user: {} },
  });
}

/** What the webhook answered. */
export interface TokenReviewStatus {
  readonly authenticated: boolean;
  readonly user: { readonly username: string; readonly uid: string; readonly groups: string[]; readonly extra: Record<string, string[]> };
  readonly audiences: readonly string[];
  /** The webhook's own error text; logged, never sent to the client. */
  readonly error: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Reads `status` from a response body; undefined when it is not a TokenReview. */
export function tokenReviewStatus(body: string): TokenReviewStatus | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !isRecord(parsed['status'])) return undefined;
  const status = parsed['status'];
  const user = isRecord(status['user']) ? status['user'] : {};
  const extra: Record<string, string[]> = {};
  if (isRecord(user['extra'])) for (const [k, v] of Object.entries(user['extra'])) extra[k] = strings(v);
  return {
    authenticated: status['authenticated'] === true,
    user: {
      username: typeof user['username'] === 'string' ? user['username'] : '',
      uid: typeof user['uid'] === 'string' ? user['uid'] : '',
      groups: strings(user['groups']),
      extra,
    },
    audiences: strings(status['audiences']),
    error: typeof status['error'] === 'string' ? status['error'] : '',
  };
}
