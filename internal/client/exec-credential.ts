// Credentials from an exec plugin, kept as client-go keeps them: cached until their expiry, until
// the server answers 401 to them, or until the process exits (never on disk). At most one plugin
// run at a time per provider, however many requests wait for it.
import type { ExecConfig } from './exec-config.ts';
import { runExecPlugin, type ExecClusterInfo } from './exec-plugin.ts';
import type { CredentialProvider, Credentials } from './credentials.ts';

/** Options of ExecCredentialProvider. */
export interface ExecCredentialOptions {
  /** The cluster the credential is for; handed to the plugin when the config sets provideClusterInfo. */
  readonly cluster?: ExecClusterInfo;
  /** Wall-clock milliseconds, compared with the answers' expirationTimestamp (default Date.now). */
  readonly now?: () => number;
  /** The base environment of the plugin (default: process.env). */
  readonly environment?: NodeJS.ProcessEnv;
  /** Time one run may take (default: limits.execPluginTimeoutMs). */
  readonly timeoutMs?: number;
}

interface CachedCredential {
  readonly credentials: Credentials;
  readonly expiresAtMs: number | undefined;
}

/** A CredentialProvider that runs the kubeconfig's exec plugin when it has no valid credential. */
export class ExecCredentialProvider implements CredentialProvider {
  private cached: CachedCredential | undefined;
  private running: Promise<Credentials> | undefined;

  constructor(
    readonly config: ExecConfig,
    private readonly options: ExecCredentialOptions = {},
  ) {}

  get(): Promise<Credentials> {
    const cached = this.cached;
    if (cached !== undefined && !this.expired(cached)) return Promise.resolve(cached.credentials);
    // Single flight: every caller that arrives during a run waits for that run.
    this.running ??= this.refresh().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  invalidate(used: Credentials): boolean {
    // Only the credential the 401 was for is dropped: a concurrent request may already have
    // replaced it, and running the plugin again for a stale 401 would be wasted.
    if (this.cached?.credentials === used) this.cached = undefined;
    return true;
  }

  /** The latest answer, even if expired (an answer may arrive already expired and is still used once). */
  peek(): Credentials | undefined {
    return this.cached?.credentials;
  }

  private expired(cached: CachedCredential): boolean {
    return cached.expiresAtMs !== undefined && (this.options.now ?? Date.now)() >= cached.expiresAtMs;
  }

  private async refresh(): Promise<Credentials> {
    const answer = await runExecPlugin(this.config, {
      ...(this.options.cluster === undefined ? {} : { cluster: this.options.cluster }),
      ...(this.options.environment === undefined ? {} : { environment: this.options.environment }),
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
    });
    const credentials: Credentials = {
      ...(answer.token === undefined ? {} : { token: answer.token }),
      ...(answer.clientCertPem === undefined ? {} : { clientCertPem: answer.clientCertPem }),
      ...(answer.clientKeyPem === undefined ? {} : { clientKeyPem: answer.clientKeyPem }),
    };
    this.cached = { credentials, expiresAtMs: answer.expiresAtMs };
    return credentials;
  }
}

/**
 * One provider per distinct plugin configuration in this process, as client-go keeps one
 * authenticator per config: every client built from the same kubeconfig user (orchctl makes one
 * per replica) shares its credential and its single plugin run. The cluster is part of the key
 * only when the plugin is told about it. Bounded by the kubeconfig users a process opens.
 */
const sharedProviders = new Map<string, ExecCredentialProvider>();

/** The process-wide provider for `config` (and `cluster` when provideClusterInfo is set). */
export function sharedExecCredentialProvider(config: ExecConfig, cluster?: ExecClusterInfo): ExecCredentialProvider {
  const told = config.provideClusterInfo ? cluster : undefined;
  const key = JSON.stringify({ config, cluster: told ?? null });
  let provider = sharedProviders.get(key);
  if (provider === undefined) {
    provider = new ExecCredentialProvider(config, told === undefined ? {} : { cluster: told });
    sharedProviders.set(key, provider);
  }
  return provider;
}
