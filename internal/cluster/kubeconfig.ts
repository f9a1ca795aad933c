import { stringify } from 'yaml';
import type { CertificateAndKey } from '../certificates/index.ts';

/** One replica's API endpoint as it appears in a kubeconfig. */
export interface KubeconfigReplica {
  readonly name: string;
  /** e.g. https://127.0.0.1:6443 */
  readonly server: string;
}

/** What a kubeconfig for a local cluster needs: the CA that signed the serving certs and the admin's client certificate. */
export interface KubeconfigOptions {
  readonly replicas: readonly KubeconfigReplica[];
  readonly caPem: string;
  readonly adminClient: CertificateAndKey;
  /** Defaults to the first replica. */
  readonly currentContext?: string;
}

/**
 * Renders a kubeconfig with one cluster and one context per replica (so kubectl can target any
 * of them with `--context`) and a single admin user holding its client certificate (CN orch-admin,
 * O system:masters) and key.
 */
export function renderKubeconfig(options: KubeconfigOptions): string {
  const caData = Buffer.from(options.caPem).toString('base64');
  const first = options.replicas[0];
  if (first === undefined) throw new Error('assert: a kubeconfig needs at least one replica');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: options.replicas.map((r) => ({
      name: r.name,
      cluster: { server: r.server, 'certificate-authority-data': caData },
    })),
    users: [{
      name: 'orch-admin',
      user: {
        'client-certificate-data': Buffer.from(options.adminClient.cert).toString('base64'),
        'client-key-data': Buffer.from(options.adminClient.key).toString('base64'),
      },
    }],
    contexts: options.replicas.map((r) => ({
      name: r.name,
      context: { cluster: r.name, user: 'orch-admin', namespace: 'default' },
    })),
    'current-context': options.currentContext ?? first.name,
  };
  return stringify(config);
}
