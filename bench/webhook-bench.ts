// What an admission webhook costs on the write path: ConfigMap creates in a namespace that one
// validating webhook matches (served by the benchmark over HTTPS on loopback, allowing every
// request) against the same creates in a namespace no webhook matches, in the same run,
// alternated A-B-B-A so that neither side gets the warmer half of the run.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '../internal/certificates/index.ts';
import { alternatedConfigMapCreates } from './create-phases.ts';
import type { LoadResult } from './load.ts';
import { configMap, type OrchClient } from './orch-client.ts';
import { ensureNamespace, pickClient, type OrchTarget } from './orch-target.ts';
import { formatNumber, makeRow, ratio, type BenchRow } from './stats.ts';

export interface WebhookBenchOptions {
  readonly creates: number;
  readonly concurrency: number;
  readonly phaseMsMax: number;
}

export interface WebhookBenchResult {
  readonly withoutWebhook: LoadResult;
  readonly withWebhook: LoadResult;
  /** AdmissionReviews the webhook answered (each create through the matched namespace, warm-up included). */
  readonly reviews: number;
}

const plainNamespace = 'bench-webhook-none';
const hookedNamespace = 'bench-webhook-one';
const configurationName = 'bench-allow-all';

/** An HTTPS webhook allowing every AdmissionReview it gets, counting them. */
async function startWebhook(): Promise<{ server: Server; url: string; caPem: string; reviews: () => number }> {
  const ca = await createCertificateAuthority('bench-webhook-ca');
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], usages: ['server'] });
  let reviews = 0;
  const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      reviews++;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { apiVersion: string; request: { uid: string } };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, url: `https://127.0.0.1:${port}/validate`, caPem: ca.cert, reviews: () => reviews };
}

/** The configuration: ConfigMap creates in the hooked namespace only (a namespaceSelector on its name label). */
function configuration(url: string, caPem: string): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: configurationName },
    webhooks: [{
      name: 'allow-all.bench.orch.dev', clientConfig: { url, caBundle: Buffer.from(caPem).toString('base64') },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': hookedNamespace } },
      sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 10,
    }],
  };
}

/** Waits until every replica calls the webhook for a create in the hooked namespace (each watches the configuration on its own). */
async function awaitWebhook(clients: readonly OrchClient[], reviews: () => number, deadlineMs: number): Promise<void> {
  for (const [i, client] of clients.entries()) {
    for (let attempt = 0; ; attempt++) {
      const before = reviews();
      await client.call('POST', `/api/v1/namespaces/${hookedNamespace}/configmaps`, configMap(`hook-check-${i}-${attempt}`, 16), [201]);
      if (reviews() > before) break;
      if (performance.now() > deadlineMs) throw new Error(`replica ${i} does not call the webhook`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export async function runWebhookBench(target: OrchTarget, options: WebhookBenchOptions): Promise<WebhookBenchResult> {
  const webhook = await startWebhook();
  const admin = pickClient(target, 0);
  try {
    await ensureNamespace(admin, plainNamespace);
    await ensureNamespace(admin, hookedNamespace);
    await admin.call('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', configuration(webhook.url, webhook.caPem), [201, 409]);
    await awaitWebhook(target.clients, webhook.reviews, performance.now() + 30_000);
    const { a, b } = await alternatedConfigMapCreates(target.clients, { a: plainNamespace, b: hookedNamespace }, options.creates, options);
    return { withoutWebhook: a, withWebhook: b, reviews: webhook.reviews() };
  } finally {
    await admin.call('DELETE', `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${configurationName}`, undefined, [200, 404]).catch(() => undefined);
    await new Promise((resolve) => webhook.server.close(resolve));
  }
}

export function webhookRows(result: WebhookBenchResult, concurrency: number): BenchRow[] {
  return [
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, no webhook`, unit: 'ops/s', orch: result.withoutWebhook.opsPerSecond }),
    makeRow({ section: 'api', name: `ConfigMap create c=${concurrency}, one validating webhook`, unit: 'ops/s', orch: result.withWebhook.opsPerSecond }),
  ];
}

/** The ratio line: creates with one matching validating webhook against none. */
export function webhookNotes(result: WebhookBenchResult): string[] {
  const r = ratio(result.withWebhook.opsPerSecond, result.withoutWebhook.opsPerSecond);
  const errors = result.withoutWebhook.errors + result.withWebhook.errors;
  return [
    `webhook: creates with one matching validating webhook run at ${formatNumber(r)}x those without (${result.reviews} reviews answered)`,
    ...(errors > 0 ? [`webhook: ${errors} creates failed (${result.withoutWebhook.firstError ?? result.withWebhook.firstError ?? ''})`] : []),
  ];
}
