// A real 3-process cluster started with every authenticator's flags, as auth-methods.test.ts
// starts one: the cluster's client CA and service-account key, a token file the test writes (the
// admin's line kept), an OIDC provider and a token webhook the test serves over HTTPS with their
// own CAs, and an authenticating proxy with its own CA (only the CN front-proxy-client allowed).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../../internal/cluster/local-cluster.ts';
import { fastRaftArgs } from './cluster-fixture.ts';
import { freePorts } from './free-ports.ts';
import { closeServer, startOidcProvider, startTokenWebhook, writeWebhookKubeconfig, type OidcProvider, type TokenWebhook } from './auth-providers.ts';
import { makeCa, makeCertificate, type TestCertificate } from '../unit/authn/fixtures/test-pki.ts';

/** The OIDC flags' client id and username prefix. */
export const oidcClientId = 'orch';
export const oidcUsernamePrefix = 'oidc:';
/** The one proxy CN --requestheader-allowed-names allows, and the proxy's user header. */
export const proxyName = 'front-proxy-client';
export const proxyUserHeader = 'X-Remote-User';

/** A cluster with every authenticator, and the services and certificates it trusts. */
export interface AuthCluster {
  readonly cluster: LocalCluster;
  readonly dataDir: string;
  readonly adminToken: string;
  readonly oidc: OidcProvider;
  readonly webhook: TokenWebhook;
  /** The proxy's certificate (proxy CA, CN front-proxy-client) and one of the same CA with a CN not allowed. */
  readonly proxy: TestCertificate;
  readonly strangerProxy: TestCertificate;
  /** The cluster CA's certificate and key, to issue client certificates with. */
  readonly clusterCa: { readonly cert: string; readonly key: string };
  /** Stops the replicas and the services, removes the directory; safe to call once in t.after. */
  stop(): Promise<void>;
}

/** A token file line's user: its name (uid `uid-<name>`) and groups. */
export interface TokenFileUser {
  readonly name: string;
  readonly groups?: readonly string[];
}

/** Starts it; `tokenFileUsers` are the token file's lines besides the admin's (token -> user). */
export async function startAuthCluster(options: { tokenFileUsers: ReadonlyMap<string, TokenFileUser> }): Promise<AuthCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-e2e-auth-'));
  const oidc = await startOidcProvider();
  const webhook = await startTokenWebhook();
  const cleanup = async (cluster?: LocalCluster): Promise<void> => {
    await cluster?.stop();
    await Promise.all([closeServer(oidc.server), closeServer(webhook.server)]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The admin token is the test's, so that the test's token file (a repeated flag's last value
    // wins over the cluster's own) still holds it.
    const dataDir = join(dir, 'data');
    const adminToken = 'admin-token-0123456789-0123456789-abcdef';
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'admin-token'), `${adminToken}\n`, { mode: 0o600 });
    const lines = [`${adminToken},orch-admin,orch-admin,"system:masters"`, ...[...options.tokenFileUsers].map(([token, user]) => `${token},${user.name},uid-${user.name}${user.groups === undefined ? '' : `,"${user.groups.join(',')}"`}`)];
    writeFileSync(join(dir, 'tokens.csv'), `${lines.join('\n')}\n`, { mode: 0o600 });
    writeFileSync(join(dir, 'oidc-ca.crt'), oidc.ca.pem);
    writeWebhookKubeconfig(join(dir, 'webhook.kubeconfig'), webhook);
    const proxyCa = await makeCa('test-front-proxy-ca');
    writeFileSync(join(dir, 'proxy-ca.crt'), proxyCa.pem);
    const proxy = await makeCertificate({ commonName: proxyName, issuer: proxyCa });
    const strangerProxy = await makeCertificate({ commonName: 'not-the-proxy', issuer: proxyCa });
    const ports = await freePorts(6);
    const cluster = await startLocalCluster({
      dataDir, host: '127.0.0.1', apiPorts: ports.slice(0, 3), peerPorts: ports.slice(3), kubeconfigPath: join(dir, 'kubeconfig'),
      output: process.env.ORCH_TEST_LOGS ? 'prefixed' : 'ignore', readyTimeoutMs: 90_000,
      extraArgs: [
        ...fastRaftArgs,
        '--token-auth-file', join(dir, 'tokens.csv'),
        '--oidc-issuer-url', oidc.issuer, '--oidc-client-id', oidcClientId, '--oidc-ca-file', join(dir, 'oidc-ca.crt'),
        '--oidc-username-prefix', oidcUsernamePrefix, '--oidc-groups-claim', 'groups',
        '--authentication-token-webhook-config-file', join(dir, 'webhook.kubeconfig'), '--authentication-token-webhook-version', 'v1',
        '--requestheader-client-ca-file', join(dir, 'proxy-ca.crt'), '--requestheader-username-headers', proxyUserHeader,
        '--requestheader-group-headers', 'X-Remote-Group', '--requestheader-allowed-names', proxyName,
      ],
    });
    const clusterCa = { cert: cluster.caPem, key: readFileSync(join(dataDir, 'pki', 'ca.key'), 'utf8') };
    return { cluster, dataDir, adminToken, oidc, webhook, proxy, strangerProxy, clusterCa, stop: () => cleanup(cluster) };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
