// Credentials this server presents to webhooks (kube's WebhookAdmission plugin configuration and
// defaultAuthenticationInfoResolver): a kubeconfig whose users are named after the webhook's
// host — `name.namespace.svc` (`:port` unless 443) or the URL's host[:port] — with `*.suffix`
// wildcards and a final `*` default, then the current context's user, else no credentials.
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { credentialsFileBytesMax } from './limits.ts';

/** What a call presents: a client certificate, a bearer token, or basic credentials. */
export interface ClientCredentials {
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

type Entry = Record<string, unknown>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(entry: Entry, field: string): string | undefined {
  const value = entry[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readBounded(file: string): string {
  if (statSync(file).size > credentialsFileBytesMax) throw new Error(`${file} is larger than ${credentialsFileBytesMax} bytes`);
  return readFileSync(file, 'utf8');
}

/** restConfigFromKubeconfig: one kubeconfig user's credentials; files are relative to the kubeconfig. */
function credentialsOf(name: string, user: Entry, directory: string): ClientCredentials {
  if (user['auth-provider'] !== undefined) throw new Error(`webhook kubeconfig user ${JSON.stringify(name)}: auth provider not supported`);
  if (user.exec !== undefined) throw new Error(`webhook kubeconfig user ${JSON.stringify(name)}: exec credential plugins are not supported`);
  const file = (field: string): string | undefined => {
    const f = text(user, field);
    return f === undefined ? undefined : readBounded(path.resolve(directory, f));
  };
  const data = (field: string): string | undefined => {
    const d = text(user, field);
    return d === undefined ? undefined : Buffer.from(d, 'base64').toString('utf8');
  };
  const token = text(user, 'token') ?? file('tokenFile')?.trim();
  const clientCertificate = data('client-certificate-data') ?? file('client-certificate');
  const clientKey = data('client-key-data') ?? file('client-key');
  const username = text(user, 'username');
  const password = text(user, 'password');
  return {
    ...(token === undefined ? {} : { token }),
    ...(clientCertificate === undefined ? {} : { clientCertificate }),
    ...(clientKey === undefined ? {} : { clientKey }),
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  };
}

/** The credentials of every kubeconfig user, and which one the current context names. */
export class WebhookCredentials {
  private constructor(
    private readonly users: ReadonlyMap<string, ClientCredentials>,
    private readonly currentUser: string | undefined,
  ) {}

  /** No kubeconfig: every webhook is called without credentials. */
  static none(): WebhookCredentials {
    return new WebhookCredentials(new Map(), undefined);
  }

  /** Reads `file` (YAML or JSON kubeconfig); throws naming what is wrong. */
  static fromKubeconfigFile(file: string): WebhookCredentials {
    const config: unknown = parse(readBounded(file));
    if (!isEntry(config)) throw new Error(`webhook kubeconfig ${file} is not a mapping`);
    const directory = path.dirname(file);
    const users = new Map<string, ClientCredentials>();
    for (const item of Array.isArray(config.users) ? config.users : []) {
      if (!isEntry(item) || typeof item.name !== 'string') continue;
      users.set(item.name, credentialsOf(item.name, isEntry(item.user) ? item.user : {}, directory));
    }
    const current = text(config, 'current-context');
    const context = (Array.isArray(config.contexts) ? config.contexts : []).find((c): c is Entry => isEntry(c) && c.name === current);
    const contextUser = context !== undefined && isEntry(context.context) ? text(context.context, 'user') : undefined;
    return new WebhookCredentials(users, contextUser);
  }

  /** For a URL webhook: `hostPort` is the URL's host with its port (443 when it has none). */
  forHostPort(hostPort: string): ClientCredentials {
    return this.lookup(hostPort);
  }

  /** For a service webhook. */
  forService(name: string, namespace: string, port: number): ClientCredentials {
    return this.lookup(`${name}.${namespace}.svc:${port}`);
  }

  /** Exact name, then `*.` wildcards from the longest suffix; again without `:443`; then `*`; then the current context's user. */
  private lookup(target: string): ClientCredentials {
    const found = this.exactOrWildcard(target) ?? (target.endsWith(':443') ? this.exactOrWildcard(target.slice(0, -':443'.length)) : undefined);
    return found ?? this.users.get('*') ?? (this.currentUser === undefined ? undefined : this.users.get(this.currentUser)) ?? {};
  }

  private exactOrWildcard(target: string): ClientCredentials | undefined {
    const exact = this.users.get(target);
    if (exact !== undefined) return exact;
    const steps = target.split('.');
    for (let i = 1; i < steps.length; i++) {
      const wildcard = this.users.get(`*.${steps.slice(i).join('.')}`);
      if (wildcard !== undefined) return wildcard;
    }
    return undefined;
  }
}

/**
 * The kubeconfig file a WebhookAdmission plugin configuration names (kind
 * WebhookAdmissionConfiguration of apiserver.config.<domain>/v1, or WebhookAdmission of
 * v1alpha1), or undefined when there is no configuration. Throws naming what is wrong.
 */
export function webhookKubeconfigFile(configuration: unknown, apiDomain: string): string | undefined {
  if (configuration === undefined || configuration === null) return undefined;
  if (!isEntry(configuration)) throw new Error('the webhook admission configuration is not a mapping');
  const group = `apiserver.config.${apiDomain}`;
  const known = (configuration.apiVersion === `${group}/v1` && configuration.kind === 'WebhookAdmissionConfiguration') || (configuration.apiVersion === `${group}/v1alpha1` && configuration.kind === 'WebhookAdmission');
  if (!known) throw new Error(`the webhook admission configuration must be kind WebhookAdmissionConfiguration of ${group}/v1, not ${String(configuration.kind)} of ${String(configuration.apiVersion)}`);
  const file = typeof configuration.kubeConfigFile === 'string' ? configuration.kubeConfigFile : '';
  if (!path.isAbsolute(file)) throw new Error(`kubeConfigFile: Invalid value: ${JSON.stringify(file)}: must be an absolute file path`);
  return file;
}
