// What the webhook tests share: a CA and server certificates, real HTTPS webhook servers on
// 127.0.0.1 (closed after the test), admission attributes and deps over an in-memory object set.
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import type { AdmissionAttributes, Operation } from '../../../../internal/admission/attributes.ts';
import type { AdmissionDeps, GroupResourceName, ObjectReader } from '../../../../internal/admission/plugin.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import { makeCa, makeCertificate, type TestCertificate } from '../../authn/fixtures/test-pki.ts';

/** A CA and a server certificate for 127.0.0.1, localhost and `webhook.ns.svc`. */
export interface Pki {
  readonly ca: TestCertificate;
  readonly server: TestCertificate;
}

let pki: Promise<Pki> | undefined;

/** One PKI for all tests of a file (key generation is the slow part). */
export function testPki(): Promise<Pki> {
  pki ??= (async () => {
    const ca = await makeCa('webhook-test-ca');
    const server = await makeCertificate({ commonName: 'webhook', issuer: ca, usages: ['server'], dnsNames: ['localhost', 'webhook.ns.svc'], ipAddresses: ['127.0.0.1'] });
    return { ca, server };
  })();
  return pki;
}

/** One request a test webhook received. */
export interface Received {
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly review: Record<string, unknown> & { request: Record<string, unknown> };
}

/** How a test webhook answers a review: the response body (or undefined to never answer). */
export type Answer = (review: Received['review'], received: readonly Received[]) => unknown;

/** A running test webhook: its base URL, the caBundle (base64) trusting it, what it received. */
export interface TestWebhook {
  readonly url: string;
  readonly port: number;
  readonly caBundle: string;
  readonly received: Received[];
}

/** Starts an HTTPS webhook on 127.0.0.1:0 answering with `answer`; closed when the test ends. */
export async function startWebhook(t: TestContext, answer: Answer): Promise<TestWebhook> {
  const { ca, server } = await testPki();
  const received: Received[] = [];
  const open = new Set<ServerResponse>();
  const httpsServer = https.createServer({ cert: server.pem, key: server.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['review'];
      received.push({ url: req.url ?? '', headers: req.headers, review });
      const body = answer(review, received);
      if (body === undefined) {
        open.add(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => httpsServer.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const res of open) res.destroy();
    httpsServer.closeAllConnections();
    await new Promise<void>((resolve) => httpsServer.close(() => resolve()));
  });
  const port = (httpsServer.address() as AddressInfo).port;
  return { url: `https://127.0.0.1:${port}/hook`, port, caBundle: Buffer.from(ca.pem).toString('base64'), received };
}

/** A v1 answer to `review` (uid echoed) with `response` fields. */
export function answerV1(review: Received['review'], response: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } };
}

/** A JSON Patch as a v1 answer carries it. */
export function patchAnswer(review: Received['review'], operations: unknown[]): Record<string, unknown> {
  return answerV1(review, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(operations)).toString('base64') });
}

/** An in-memory ObjectReader keyed by `<group>/<resource>/<namespace>/<name>`. */
export function memoryObjects(objects: readonly [GroupResourceName, KObject][]): ObjectReader {
  const key = (gr: GroupResourceName, ns: string | undefined, name: string): string => `${gr.group}/${gr.resource}/${ns ?? ''}/${name}`;
  const map = new Map(objects.map(([gr, o]) => [key(gr, o.metadata.namespace, o.metadata.name ?? ''), o]));
  return {
    get: (gr, ns, name) => Promise.resolve(map.get(key(gr, ns, name))),
    list: () => Promise.resolve([...map.values()]),
  };
}

/** Deps for plugins; `logged` collects the log lines. */
export function testDeps(objects: ObjectReader, logged: string[] = []): AdmissionDeps {
  return {
    apiDomain: 'k8s.io',
    objects,
    writer: { create: () => Promise.reject(new Error('unused')), update: () => Promise.reject(new Error('unused')) },
    authorizer: { authorize: () => Promise.reject(new Error('unused')) } as unknown as AdmissionDeps['authorizer'],
    log: (message) => logged.push(message),
    clock: () => Date.now(),
  };
}

/** Attributes with their sinks exposed. */
export type TestAttributes = AdmissionAttributes & { readonly annotations: Map<string, string>; readonly warnings: string[] };

/** A pod request in namespace `ns` by default. */
export function podAttributes(overrides: Partial<Omit<AdmissionAttributes, 'addAnnotation' | 'addWarning'>> = {}): TestAttributes {
  const annotations = new Map<string, string>();
  const warnings: string[] = [];
  const operation: Operation = overrides.operation ?? 'CREATE';
  return {
    operation,
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'ns',
    name: 'p',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    oldObject: undefined,
    operationOptions: { fieldManager: 'kubectl' },
    dryRun: false,
    userInfo: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: {} },
    reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
    ...overrides,
    annotations,
    warnings,
    addAnnotation(key, value) {
      if (!annotations.has(key)) annotations.set(key, value);
    },
    addWarning(text) {
      warnings.push(text);
    },
  };
}

/** The `ns` namespace with label team=a. */
export const nsObject: [GroupResourceName, KObject] = [{ group: '', resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: { team: 'a' } } }];

/** A webhook calling `hook` for pod CREATEs, with the fields a test overrides. */
export function webhookSpec(hook: TestWebhook, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    clientConfig: { url: hook.url, caBundle: hook.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

/** A configuration object of `kind` holding `webhooks`. */
export function configuration(kind: string, name: string, webhooks: Record<string, unknown>[]): KObject {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks };
}
