// An in-memory API (the real CertificateSigningRequest store over local storage) for the
// certificate controllers' tests: requests created as a user, approved, denied, read back.
import type { TestContext } from 'node:test';
import type { UserInfo } from '../../../../internal/authn/user-info.ts';
import type { Controller, ControllerDeps } from '../../../../internal/controllers/controller.ts';
import { csrStoreOf } from '../../../../internal/controllers/certificates/csr-objects.ts';
import type { GenericStore } from '../../../../internal/registry/generic/store.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { controllerHarness, getOrUndefined } from '../controller-harness.ts';

/** A node's user, as a kubelet's client certificate authenticates. */
export function nodeUser(node: string): UserInfo {
  return { username: `system:node:${node}`, uid: '', groups: ['system:nodes', 'system:authenticated'], extra: {} };
}

/** What a test creates a request with. */
export interface CsrInput {
  readonly name: string;
  readonly requestPem: string;
  readonly signerName: string;
  readonly usages: readonly string[];
  readonly expirationSeconds?: number;
  /** The requester (default: node n1). */
  readonly user?: UserInfo;
}

/** The fixture's API. */
export interface CsrFixture {
  readonly deps: ControllerDeps;
  readonly store: GenericStore;
  readonly logs: string[];
  create(input: CsrInput): Promise<KObject>;
  /** Adds a condition through the approval sub-resource (Approved or Denied). */
  decide(name: string, type: 'Approved' | 'Denied'): Promise<KObject>;
  /** The request, or undefined once deleted. */
  find(name: string): Promise<KObject | undefined>;
  /** Runs `controllers` until the test ends. */
  run(...controllers: Controller[]): void;
}

/** Opens the fixture; it closes when the test ends. */
export async function csrFixture(t: TestContext, deps: Partial<Pick<ControllerDeps, 'authorizer'>> = {}): Promise<CsrFixture> {
  const { deps: controllerDeps, logs, run } = await controllerHarness(t, deps);
  const store = csrStoreOf(controllerDeps);
  if (store === undefined) throw new Error('no certificatesigningrequests store');
  return {
    deps: controllerDeps,
    store,
    logs,
    async create(input) {
      const spec = {
        request: Buffer.from(input.requestPem).toString('base64'),
        signerName: input.signerName,
        usages: [...input.usages],
        ...(input.expirationSeconds === undefined ? {} : { expirationSeconds: input.expirationSeconds }),
      };
      const body = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: input.name }, spec };
      return (await store.create(undefined, body, { fieldManager: 'test', user: input.user ?? nodeUser('n1') })).object;
    },
    async decide(name, type) {
      const current = await store.get(undefined, name);
      const conditions = [...(((current.status ?? {}) as { conditions?: unknown[] }).conditions ?? []), { type, status: 'True', reason: 'Test', message: `${type} by the test` }];
      return (await store.update(undefined, name, { ...current, status: { ...(current.status ?? {}), conditions } }, { fieldManager: 'test', subresource: 'approval' })).object;
    },
    find: (name) => getOrUndefined(store, undefined, name),
    run,
  };
}
