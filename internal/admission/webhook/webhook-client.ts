// Calls one webhook (kube's ClientManager.HookClient and the dispatchers' request step): where to
// connect (URL, or the service's endpoint with the service's DNS name for TLS), what to present
// (caBundle, credentials by host), the deadline (timeoutSeconds, told to the webhook as
// `?timeout=Ns`), and the AdmissionReview round trip with its checks. Every failure is a
// CallingWebhookError; a refusal is returned in the response, not thrown.
import { randomUUID } from 'node:crypto';
import type { AdmissionAttributes } from '../attributes.ts';
import { chooseReviewVersion, createAdmissionReview, verifyAdmissionResponse, type AdmissionResponse, type ReviewObjects } from './admission-review.ts';
import type { ClientCredentials, WebhookCredentials } from './client-credentials.ts';
import { CallingWebhookError } from './errors.ts';
import { postOnce, PostError, type PostRequest } from './https-post.ts';
import { unexpectedStatus } from './response-status.ts';
import type { ServiceResolver } from './service-resolver.ts';
import type { WebhookInvocation, WebhookSpec } from './webhook-types.ts';

/** What calls need from the server. */
export interface WebhookClientDeps {
  readonly apiDomain: string;
  readonly credentials: WebhookCredentials;
  readonly services: ServiceResolver;
}

interface Target {
  /** Where to connect (its host and port) and what path to ask for. */
  readonly url: URL;
  /** The URL as Go prints it (a service's `:443` kept), for Host and error messages. */
  readonly shown: string;
  readonly authority: string;
  readonly credentials: ClientCredentials;
  readonly dial?: { readonly host: string; readonly port: number };
}

/** The URL called and whom to dial: the URL's host, or a service's endpoint under its DNS name. */
async function targetOf(spec: WebhookSpec, deps: WebhookClientDeps, timeoutSeconds: number, transportCode: number): Promise<Target> {
  const { url, service } = spec.clientConfig;
  const query = `?timeout=${timeoutSeconds}s`;
  if (service !== undefined) {
    const port = service.port ?? 443;
    const authority = `${service.name}.${service.namespace}.svc:${port}`;
    const path = service.path === undefined || service.path === '' ? '/' : service.path;
    const shown = `https://${authority}${path}${query}`;
    const dial = await deps.services.resolve(service.namespace, service.name, port).catch((err: unknown) => {
      throw new CallingWebhookError(spec.name, `failed to call webhook: Post ${JSON.stringify(shown)}: ${err instanceof Error ? err.message : String(err)}`, transportCode);
    });
    return { url: new URL(shown), shown, authority, credentials: deps.credentials.forService(service.name, service.namespace, port), dial };
  }
  if (url === undefined) throw new CallingWebhookError(spec.name, 'webhook configuration must have either service or URL', 500);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new CallingWebhookError(spec.name, `Unparsable URL: ${(err as Error).message}`, 500);
  }
  // Go keeps the authority as written (an explicit :443 too); WHATWG URL drops a default port.
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1]?.replace(/^.*@/, '') ?? parsed.host;
  const shown = `https://${authority}${parsed.pathname}${query}`;
  parsed.search = query;
  return { url: parsed, shown, authority, credentials: deps.credentials.forHostPort(/:\d+$/.test(authority) ? authority : `${authority}:443`) };
}

function headersOf(credentials: ClientCredentials): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': 'kube-apiserver-admission' };
  if (credentials.token !== undefined) headers.authorization = `Bearer ${credentials.token}`;
  else if (credentials.username !== undefined || credentials.password !== undefined) headers.authorization = `Basic ${Buffer.from(`${credentials.username ?? ''}:${credentials.password ?? ''}`).toString('base64')}`;
  return headers;
}

/** Sends the review and returns the answer's body, or throws CallingWebhookError ("failed to call webhook: ..."). */
async function exchange(spec: WebhookSpec, request: PostRequest, transportCode: number): Promise<unknown> {
  let response;
  try {
    response = await postOnce(request);
  } catch (err) {
    throw new CallingWebhookError(spec.name, `failed to call webhook: ${err instanceof PostError ? err.message : String(err)}`, transportCode);
  }
  if (response.status < 200 || response.status > 299) {
    const failure = unexpectedStatus(response);
    throw new CallingWebhookError(spec.name, `failed to call webhook: ${failure.message}`, failure.code);
  }
  try {
    return JSON.parse(response.body.toString('utf8')) as unknown;
  } catch (err) {
    throw new CallingWebhookError(spec.name, `failed to call webhook: couldn't get version/kind; json parse error: ${(err as Error).message}`, transportCode);
  }
}

/**
 * Calls the webhook of `invocation` with `objects` (already in the invocation's version) and
 * returns its verified answer. Throws CallingWebhookError for every failure before an answer.
 */
export async function callWebhook(invocation: WebhookInvocation, attributes: AdmissionAttributes, objects: ReviewObjects, mutating: boolean, deps: WebhookClientDeps): Promise<AdmissionResponse> {
  const spec = invocation.webhook.spec;
  const version = chooseReviewVersion(spec.admissionReviewVersions);
  if (version === undefined) throw new CallingWebhookError(spec.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400);
  // What a transport failure counts as in metrics: kube's mutating phase says 503, its validating phase 400.
  const transportCode = mutating ? 503 : 400;
  const uid = randomUUID();
  const review = createAdmissionReview(version, uid, attributes, invocation, objects, deps.apiDomain);
  const timeoutSeconds = spec.timeoutSeconds ?? 10;
  const target = await targetOf(spec, deps, timeoutSeconds, transportCode);
  const caBundle = spec.clientConfig.caBundle;
  const { credentials } = target;
  const body = await exchange(spec, {
    url: target.url,
    shown: target.shown,
    authority: target.authority,
    ...(target.dial === undefined ? {} : { dial: target.dial }),
    headers: headersOf(credentials),
    body: JSON.stringify(review),
    tls: {
      ...(caBundle === undefined || caBundle === '' ? {} : { ca: Buffer.from(caBundle, 'base64').toString('utf8') }),
      ...(credentials.clientCertificate === undefined ? {} : { clientCertificate: credentials.clientCertificate }),
      ...(credentials.clientKey === undefined ? {} : { clientKey: credentials.clientKey }),
    },
    timeoutMs: timeoutSeconds * 1000,
  }, transportCode);
  try {
    return verifyAdmissionResponse(uid, mutating, version, body, deps.apiDomain);
  } catch (err) {
    throw new CallingWebhookError(spec.name, `received invalid webhook response: ${(err as Error).message}`, 503);
  }
}
