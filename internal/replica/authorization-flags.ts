// The replica's authorization flags, as kube-apiserver 1.28 names and checks them
// (pkg/kubeapiserver/options/authorization.go): `--authorization-mode` (default RBAC) and the
// webhook's config file, API version and answer-cache lifetimes.
import { parseAuthorizationModes, type AuthorizationMode } from '../authz/authorization-modes.ts';
import { webhookAuthorizedTtlMsDefault, webhookUnauthorizedTtlMsDefault } from '../authz/limits.ts';
import type { WebhookVersion } from '../authz/webhook/webhook-authorizer.ts';

/** The authorization flags after validation. */
export interface AuthorizationFlags {
  readonly modes: readonly AuthorizationMode[];
  /** Set when the Webhook mode is on. */
  readonly webhook?: {
    readonly configFile: string;
    readonly version: WebhookVersion;
    readonly authorizedTtlMs: number;
    readonly unauthorizedTtlMs: number;
  };
}

/** The parseArgs options of the authorization flags. */
export const authorizationFlagOptions = {
  'authorization-mode': { type: 'string', default: 'RBAC' },
  'authorization-webhook-config-file': { type: 'string' },
  'authorization-webhook-version': { type: 'string', default: 'v1beta1' },
  'authorization-webhook-cache-authorized-ttl': { type: 'string' },
  'authorization-webhook-cache-unauthorized-ttl': { type: 'string' },
} as const;

/** The values parseArgs gives for them. */
export interface AuthorizationFlagValues {
  readonly 'authorization-mode': string;
  readonly 'authorization-webhook-config-file'?: string | undefined;
  readonly 'authorization-webhook-version': string;
  readonly 'authorization-webhook-cache-authorized-ttl'?: string | undefined;
  readonly 'authorization-webhook-cache-unauthorized-ttl'?: string | undefined;
}

/**
 * Validates the flags; throws `makeError(message)` naming the flag (kube refuses to start on an
 * unknown or repeated mode, on Webhook without its config file, and on the file without Webhook).
 */
export function parseAuthorizationFlags(values: AuthorizationFlagValues, parseDurationMs: (text: string, flag: string) => number, makeError: (message: string) => Error): AuthorizationFlags {
  let modes: AuthorizationMode[];
  try {
    modes = parseAuthorizationModes(values['authorization-mode']);
  } catch (err) {
    throw makeError(`--authorization-mode: ${(err as Error).message}`);
  }
  const configFile = values['authorization-webhook-config-file'];
  const webhookOn = modes.includes('Webhook');
  if (webhookOn && (configFile === undefined || configFile === '')) throw makeError('--authorization-webhook-config-file: authorization-mode Webhook needs its config file');
  if (!webhookOn && configFile !== undefined) throw makeError('--authorization-webhook-config-file: cannot be given without --authorization-mode Webhook');
  const version = values['authorization-webhook-version'];
  if (version !== 'v1' && version !== 'v1beta1') throw makeError(`--authorization-webhook-version: "${version}" is not v1 or v1beta1`);
  if (!webhookOn || configFile === undefined) return { modes };
  const ttl = (flag: 'authorization-webhook-cache-authorized-ttl' | 'authorization-webhook-cache-unauthorized-ttl', fallback: number): number => {
    const text = values[flag];
    return text === undefined ? fallback : parseDurationMs(text, flag);
  };
  return {
    modes,
    webhook: {
      configFile, version,
      authorizedTtlMs: ttl('authorization-webhook-cache-authorized-ttl', webhookAuthorizedTtlMsDefault),
      unauthorizedTtlMs: ttl('authorization-webhook-cache-unauthorized-ttl', webhookUnauthorizedTtlMsDefault),
    },
  };
}
