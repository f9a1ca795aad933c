import { selectPlugins } from '../../../internal/admission/plugin-selection.ts';
import { parseRuntimeConfig } from '../../../internal/registry/runtime-config.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiServer, type ApiServer, type ApiServerOptions } from '../../../internal/apiserver/index.ts';
import { TestApiClient } from '../../support/api-client.ts';
import { FakeStorage } from './fake-storage.ts';
import { openLocalStorage } from '../../../internal/storage/open-local-storage.ts';
import type { Storage } from '../../../internal/storage/storage.ts';

/** A self-signed serving certificate for 127.0.0.1 (made once per process with openssl). */
export interface TestTls {
  readonly cert: string;
  readonly key: string;
  readonly dir: string;
}

let cached: TestTls | undefined;

/** A serving certificate for tests; the certificate is its own CA. */
export function testTls(): TestTls {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'orch-apiserver-test-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=orch-test', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  cached = { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8'), dir };
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return cached;
}

/**
 * The admission of test servers: kube-apiserver's default plugins but ServiceAccount, as kube's own
 * API server tests run (no controller makes `default` service accounts here, and pods are compared
 * as written). The plugin has its own tests, and the e2e clusters run it.
 */
export const testAdmission = { plugins: selectPlugins({ disable: ['ServiceAccount'] }), configurations: new Map<string, unknown>() };

/** Serving options that turn on every group version and feature gate (suites that cover every built-in kind). */
export const everythingServed = { runtimeConfig: parseRuntimeConfig('api/all=true'), featureGates: new Map([['ValidatingAdmissionPolicy', true]]) };

/** The admin token of test servers. */
export const testToken = 'test-admin-token-0123456789';

/** A running test server with a client that trusts it. */
export interface TestServer {
  readonly server: ApiServer;
  /** The store: a FakeStorage, or the SQLite local store when ORCH_TEST_STORAGE=local. */
  readonly storage: Storage;
  readonly client: TestApiClient;
  readonly baseUrl: string;
  readonly tls: TestTls;
  close(): Promise<void>;
}

/**
 * Starts an API server on port 0 over a fresh store (FakeStorage, or openLocalStorage(':memory:')
 * when the environment says ORCH_TEST_STORAGE=local), with the `default` namespace.
 */
export async function startTestServer(extra: Partial<ApiServerOptions> = {}): Promise<TestServer> {
  const tls = testTls();
  const storage: Storage = process.env.ORCH_TEST_STORAGE === 'local' ? await openLocalStorage({ dataDir: ':memory:' }) : new FakeStorage();
  const server = await createApiServer({
    storage, tls: { cert: tls.cert, key: tls.key }, adminToken: testToken, listen: { host: '127.0.0.1', port: 0 }, bootstrapNamespaces: ['default'], log: () => undefined,
    admission: testAdmission, ...extra,
  });
  const baseUrl = `https://127.0.0.1:${server.port}`;
  const client = new TestApiClient(baseUrl, tls.cert, testToken);
  return {
    server,
    storage,
    client,
    baseUrl,
    tls,
    async close() {
      await client.close();
      await server.close();
      await storage.close();
    },
  };
}
