// A local store with the namespaces the bootstrap-token controllers work in, and helpers to write
// token Secrets and read objects back.
import type { TestContext } from 'node:test';
import { compactVerify } from 'jose';
import type { Controller, ControllerDeps } from '../../../../internal/controllers/controller.ts';
import type { GenericStore } from '../../../../internal/registry/generic/store.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { controllerHarness, getOrUndefined } from '../controller-harness.ts';

/** The fixture's store and helpers. */
export interface BootstrapFixture {
  readonly deps: ControllerDeps;
  readonly logs: string[];
  store(group: string, plural: string): GenericStore;
  find(plural: string, namespace: string, name: string, group?: string): Promise<KObject | undefined>;
  /** Writes Secret bootstrap-token-<id> in `namespace` with kubeadm's keys, `data` overriding them. */
  token(namespace: string, id: string, secret: string, data?: Record<string, string>): Promise<void>;
  /** Runs `controller` until the test ends. */
  run(controller: Controller): void;
}

/** Opens the fixture; everything is closed when the test ends. */
export async function bootstrapFixture(t: TestContext): Promise<BootstrapFixture> {
  const { deps, logs, run } = await controllerHarness(t);
  const store = (group: string, plural: string): GenericStore => [...deps.stores.values()].find((s) => s.served.group === group && s.decl.plural === plural)!;
  for (const name of ['kube-system', 'orch-system', 'kube-public', 'orch-public']) await store('', 'namespaces').create(undefined, { metadata: { name } }, { fieldManager: 'test' });
  return {
    deps,
    logs,
    store,
    find: (plural, namespace, name, group = '') => getOrUndefined(store(group, plural), namespace, name),
    async token(namespace, id, secret, data = {}) {
      const stringData = { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', 'usage-bootstrap-signing': 'true', ...data };
      await store('', 'secrets').create(namespace, { metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.kubernetes.io/token', stringData }, { fieldManager: 'test' });
    },
    run,
  };
}

/**
 * Verifies `detached` over `payload` as a joining client holding `token` (`<id>.<secret>`) does
 * (kubeadm's DetachedTokenIsValid): HS256 keyed by the secret, and the header must name the id.
 */
export async function verifiesWith(detached: string, payload: string, token: string): Promise<boolean> {
  const [id = '', secret = ''] = token.split('.');
  const [header, signature] = detached.split('..');
  const compact = `${header}.${Buffer.from(payload, 'utf8').toString('base64url')}.${signature}`;
  try {
    const { protectedHeader } = await compactVerify(compact, Buffer.from(secret, 'utf8'), { algorithms: ['HS256'] });
    return protectedHeader.kid === id;
  } catch {
    return false;
  }
}
