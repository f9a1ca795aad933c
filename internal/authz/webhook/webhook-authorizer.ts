// The Webhook authorizer (k8s.io/apiserver plugin/pkg/authorizer/webhook, 1.28): each request is
// POSTed as a SubjectAccessReview (`authorization.k8s.io/v1beta1` by default, or v1) to the
// configured server; allowed answers are cached for the authorized TTL, others for the
// unauthorized TTL. A failed call is no opinion with an error: unless a later authorizer allows,
// the request is refused with a 500, as kube-apiserver's authorization filter does.
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { UserInfo } from '../../authn/user-info.ts';
import { decide, type Attributes, type Decision, type RuleResolvingAuthorizer, type RulesResult } from '../authorizer.ts';
import { webhookAttemptsMax, webhookAuthorizedTtlMsDefault, webhookCacheEntriesMax, webhookCachedAttributeBytesMax, webhookRequestTimeoutMs, webhookResponseBytesMax, webhookRetryDelayMsInitial, webhookUnauthorizedTtlMsDefault } from '../limits.ts';
import { TtlCache } from './ttl-cache.ts';
import type { WebhookConnection } from './webhook-config.ts';

/** `--authorization-webhook-version`. */
export type WebhookVersion = 'v1' | 'v1beta1';

/** How the webhook authorizer is set up. */
export interface WebhookAuthorizerOptions {
  readonly connection: WebhookConnection;
  /** Default `v1beta1`, as kube-apiserver's flag. */
  readonly version?: WebhookVersion;
  readonly authorizedTtlMs?: number;
  readonly unauthorizedTtlMs?: number;
  /** The API group suffix of the review (`k8s.io`). */
  readonly apiDomain?: string;
  readonly nowMs?: () => number;
}

/** What the webhook answers (SubjectAccessReviewStatus). */
interface ReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

/** The SubjectAccessReview spec for a request; v1beta1 calls the groups `group`. */
export function subjectAccessReviewSpec(attributes: Attributes, version: WebhookVersion): Record<string, unknown> {
  const user: UserInfo = attributes.user;
  const spec: Record<string, unknown> = {};
  if (attributes.resourceRequest) {
    const r: Record<string, string> = {};
    const set = (k: string, v: string): void => {
      if (v !== '') r[k] = v;
    };
    set('namespace', attributes.namespace);
    set('verb', attributes.verb);
    set('group', attributes.apiGroup);
    set('version', attributes.apiVersion);
    set('resource', attributes.resource);
    set('subresource', attributes.subresource);
    set('name', attributes.name);
    spec.resourceAttributes = r;
  } else {
    spec.nonResourceAttributes = { path: attributes.path, verb: attributes.verb };
  }
  if (user.username !== '') spec.user = user.username;
  if (user.groups.length > 0) spec[version === 'v1' ? 'groups' : 'group'] = [...user.groups];
  if (Object.keys(user.extra).length > 0) spec.extra = user.extra;
  if (user.uid !== '') spec.uid = user.uid;
  return spec;
}

// Caller-controlled sizes: huge ones are not cached so a caller cannot flood the cache (kube's shouldCache).
function cacheable(attributes: Attributes): boolean {
  let bytes = attributes.namespace.length + attributes.verb.length + attributes.apiGroup.length + attributes.apiVersion.length;
  bytes += attributes.resource.length + attributes.subresource.length + attributes.name.length + attributes.path.length;
  return bytes < webhookCachedAttributeBytesMax;
}

function statusOf(body: unknown): ReviewStatus {
  const status = (typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined) as Record<string, unknown> | undefined;
  return {
    allowed: status?.allowed === true,
    denied: status?.denied === true,
    reason: typeof status?.reason === 'string' ? status.reason : '',
    evaluationError: typeof status?.evaluationError === 'string' ? status.evaluationError : '',
  };
}

class RetryableError extends Error {}

/** Asks an authorization webhook. */
export class WebhookAuthorizer implements RuleResolvingAuthorizer {
  private readonly cache: TtlCache<ReviewStatus>;
  private readonly version: WebhookVersion;
  private readonly authorizedTtlMs: number;
  private readonly unauthorizedTtlMs: number;
  private readonly apiVersion: string;

  constructor(private readonly options: WebhookAuthorizerOptions) {
    this.version = options.version ?? 'v1beta1';
    this.authorizedTtlMs = options.authorizedTtlMs ?? webhookAuthorizedTtlMsDefault;
    this.unauthorizedTtlMs = options.unauthorizedTtlMs ?? webhookUnauthorizedTtlMsDefault;
    this.apiVersion = `authorization.${options.apiDomain ?? 'k8s.io'}/${this.version}`;
    this.cache = new TtlCache(webhookCacheEntriesMax, options.nowMs);
  }

  async authorize(attributes: Attributes): Promise<Decision> {
    const spec = subjectAccessReviewSpec(attributes, this.version);
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (status === undefined) {
      try {
        status = statusOf(await this.review(spec));
      } catch (e) {
        return decide('no-opinion', '', e as Error);
      }
      if (cacheable(attributes)) this.cache.set(key, status, status.allowed ? this.authorizedTtlMs : this.unauthorizedTtlMs);
    }
    if (status.denied && status.allowed) return decide('deny', status.reason, new Error('webhook subject access review returned both allow and deny response'));
    if (status.denied) return decide('deny', status.reason);
    if (status.allowed) return decide('allow', status.reason);
    return decide('no-opinion', status.reason);
  }

  /** A webhook cannot list rules: always incomplete (kube's answer). */
  rulesFor(): RulesResult {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, errors: [new Error('webhook authorizer does not support user rule resolution')] };
  }

  /** Answers the webhook cache holds now. */
  get cachedAnswers(): number {
    return this.cache.size;
  }

  private async review(spec: Record<string, unknown>): Promise<unknown> {
    const body = JSON.stringify({ apiVersion: this.apiVersion, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec, status: { allowed: false } });
    let delayMs = webhookRetryDelayMsInitial;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post(body);
      } catch (e) {
        // As kube's DefaultShouldRetry: only a reset connection or a 429 is tried again; a refused connection fails at once.
        if (!(e instanceof RetryableError) || attempt >= webhookAttemptsMax) throw e;
      }
      await new Promise((r) => setTimeout(r, delayMs));
      delayMs *= 1.5;
    }
  }

  private post(body: string): Promise<unknown> {
    const c = this.options.connection;
    const url = new URL(c.server);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
    return new Promise((resolve, reject) => {
      const fail = (message: string, retry = false): void => reject(retry ? new RetryableError(message) : new Error(message));
      const req = send(url, { method: 'POST', headers, ca: c.ca, cert: c.cert, key: c.key, rejectUnauthorized: !c.insecureSkipTlsVerify, timeout: webhookRequestTimeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > webhookResponseBytesMax) req.destroy(new Error(`webhook answer larger than ${webhookResponseBytesMax} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (code < 200 || code > 299) return fail(`the server responded with the status code ${code} but did not return more information`, code === 429);
          try {
            resolve(JSON.parse(text));
          } catch {
            fail('the webhook answered with something that is not JSON');
          }
        });
        res.on('error', (e) => fail(`Post "${c.server}": ${e.message}`));
      });
      req.on('timeout', () => req.destroy(new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')));
      req.on('error', (e: NodeJS.ErrnoException) => fail(`Post "${c.server}": ${e.message}`, e.code === 'ECONNRESET'));
      req.end(body);
    });
  }
}
