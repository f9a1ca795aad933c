// OrchClient: a multi-endpoint client for the orch API with load balancing, health-based
// ejection and the retry rules below.
//
// Retry rules (an attempt is retried on another endpoint when possible, after a jittered backoff,
// at most `requestAttemptsMax` attempts in all):
//  - Reads (GET): retried after any transport error, 503, 504 or 429.
//  - Writes (POST, PUT, PATCH, DELETE) are retried only when the attempt cannot have applied:
//      * a connection-phase error (refused, DNS, unreachable, connect timeout, TLS handshake):
//        the request was never sent (see `isNotSentError`);
//      * 503 Service Unavailable: the server contract is that a replica answers 503 only when it
//        refused the write before proposing it (not ready, no leader, cut off from the quorum);
//      * 429 Too Many Requests: refused by flow control before any processing.
//    A transport error after connect (reset, closed socket, header timeout) or a 504 leaves the
//    outcome unknown: the write is NOT retried and fails with UnknownOutcomeError, except
//  - a PUT whose body carries metadata.resourceVersion (compare-and-swap): retrying it is safe
//    because at most one attempt can match the version. After an unknown outcome it is retried;
//    if a later attempt then fails with any API error (409 Conflict above all: our own first
//    attempt may have moved the version), the result is UnknownOutcomeError carrying that error.
//  - When every attempt failed before reaching the store, a write fails with UnavailableError,
//    which promises it was not applied.
// 503 and connection errors eject the endpoint (see endpoints.ts); a /readyz probe brings it back.
//
// Credentials come from a CredentialProvider (fixed ones, or an exec plugin). A 401 answer is
// refused before any processing, so a request that met one is sent again, once, with a fresh
// credential when the provider can give one; a new client certificate replaces the pools.
import { systemClock, jitteredBackoffMs, type Clock } from './backoff.ts';
import { Balancer, type BalancePolicy } from './balancer.ts';
import { Endpoint } from './endpoints.ts';
import { StaticCredentials, type CredentialProvider, type Credentials } from './credentials.ts';
import { EndpointPools } from './endpoint-pools.ts';
import { ApiError, UnavailableError, UnknownOutcomeError, apiErrorFromResponse } from './errors.ts';
import { sharedExecCredentialProvider, type ExecCredentialProvider } from './exec-credential.ts';
import { loadKubeconfig, resolveContext, sameCaServers, type Kubeconfig, type ResolvedContext } from './kubeconfig.ts';
import * as limits from './limits.ts';
import { isAbortError, isNotSentError, readBodyText, requestTarget, type TransportSecurity } from './transport.ts';

/** Query parameters of a request; undefined values are omitted. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** Construction options of OrchClient. */
export interface OrchClientOptions extends TransportSecurity {
  /** Base URLs of the replicas (e.g. https://127.0.0.1:6443); at least one. */
  readonly servers: readonly string[];
  readonly token?: string;
  /**
   * Where each request's credentials come from (e.g. an ExecCredentialProvider). When set,
   * `token` is ignored; `clientCertPem`/`clientKeyPem` stay in use until the provider gives a certificate.
   */
  readonly credentials?: CredentialProvider;
  readonly policy?: BalancePolicy;
  readonly requestAttemptsMax?: number;
  readonly requestTimeoutMs?: number;
  readonly clock?: Clock;
  readonly userAgent?: string;
}

/** Per-request options. */
export interface RequestOptions {
  readonly query?: Query;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/** An open streaming answer (a watch): the endpoint that serves it and its body. */
export interface OpenStream {
  readonly endpoint: Endpoint;
  readonly body: AsyncIterable<Buffer | Uint8Array> & { destroy(error?: Error): unknown };
}

/** Options of OrchClient.fromKubeconfig. */
export interface KubeconfigClientOptions {
  /** The context to use (default: current-context). */
  readonly context?: string;
  readonly policy?: BalancePolicy;
  /** Overrides the credentials the kubeconfig user names (token, certificate or exec plugin). */
  readonly credentials?: CredentialProvider;
}

type Outcome = { kind: 'ok'; value: unknown } | { kind: 'retry'; notApplied: boolean; error: unknown } | { kind: 'fail'; error: unknown };

function isCompareAndSwapPut(method: string, body: unknown): boolean {
  if (method !== 'PUT' || body === null || typeof body !== 'object') return false;
  const rv = (body as { metadata?: { resourceVersion?: unknown } }).metadata?.resourceVersion;
  return typeof rv === 'string' && rv !== '';
}

/** A client of the orch API over several endpoints. Call `close()` when done. */
export class OrchClient {
  /** The balancer over this client's endpoints (exposed for tests and watch resumption). */
  readonly balancer: Balancer;
  private readonly pools: EndpointPools;
  /** Where every request's credentials come from. */
  readonly credentials: CredentialProvider;
  /** Time and randomness used for backoff (injected in tests). */
  readonly clock: Clock;

  constructor(private readonly options: OrchClientOptions) {
    if (options.servers.length === 0) throw new UnavailableError('no servers configured', { cause: undefined });
    this.clock = options.clock ?? systemClock;
    const endpoints = options.servers.map((url) => new Endpoint(url.replace(/\/+$/, ''), this.clock));
    this.pools = new EndpointPools(endpoints, options);
    this.credentials = options.credentials ?? new StaticCredentials(options.token === undefined ? {} : { token: options.token });
    this.balancer = new Balancer(endpoints, options.policy ?? 'round-robin');
  }

  /** A client for a kubeconfig context, balancing over every cluster that shares its CA. */
  static fromKubeconfig(config: Kubeconfig | string, options: KubeconfigClientOptions = {}): OrchClient {
    const parsed = typeof config === 'string' ? loadKubeconfig(config) : config;
    const context = resolveContext(parsed, options.context);
    const credentials = options.credentials ?? execProviderOf(context);
    return new OrchClient({
      servers: sameCaServers(parsed, context),
      ...(context.cluster.caPem === undefined ? {} : { caPem: context.cluster.caPem }),
      insecureSkipTlsVerify: context.cluster.insecureSkipTlsVerify,
      ...(credentials === undefined ? {} : { credentials }),
      ...(context.user.token === undefined ? {} : { token: context.user.token }),
      ...(context.user.clientCertPem === undefined ? {} : { clientCertPem: context.user.clientCertPem }),
      ...(context.user.clientKeyPem === undefined ? {} : { clientKeyPem: context.user.clientKeyPem }),
      ...(options.policy === undefined ? {} : { policy: options.policy }),
    });
  }

  /** GET one object. Throws ApiError (e.g. 404) or UnavailableError. */
  get<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request('GET', path, options) as Promise<T>;
  }

  /** GET a collection (one page when `limit` is set). */
  list<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request('GET', path, options) as Promise<T>;
  }

  /** POST an object to a collection path. Never retried once it may have been sent. */
  create<T = unknown>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.request('POST', path, { ...options, body }) as Promise<T>;
  }

  /** PUT a whole object; with metadata.resourceVersion it is a compare-and-swap and safely retried. */
  update<T = unknown>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.request('PUT', path, { ...options, body }) as Promise<T>;
  }

  /** PATCH an object; the content type defaults to a JSON merge patch. */
  patch<T = unknown>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.request('PATCH', path, { contentType: 'application/merge-patch+json', ...options, body }) as Promise<T>;
  }

  /** DELETE an object (optionally with a DeleteOptions body). */
  delete<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request('DELETE', path, options) as Promise<T>;
  }

  /** Sends one request with the retry rules in the header of this file; resolves to the parsed JSON body. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    const isRead = method === 'GET' || method === 'HEAD';
    const casPut = isCompareAndSwapPut(method, options.body);
    const attemptsMax = this.options.requestAttemptsMax ?? limits.requestAttemptsMax;
    const tried = new Set<Endpoint>();
    let uncertain: unknown = undefined;
    let lastError: unknown = undefined;
    for (let attempt = 1; attempt <= attemptsMax; attempt += 1) {
      if (attempt > 1) await this.clock.sleep(jitteredBackoffMs(attempt - 1, limits.retryBackoffBaseMs, limits.retryBackoffMaxMs, this.clock.random));
      this.startDueProbes();
      const endpoint = this.balancer.pick(tried);
      tried.add(endpoint);
      const outcome = await this.authenticatedAttempt(endpoint, method, path, options);
      if (outcome.kind === 'ok') return outcome.value;
      if (outcome.kind === 'fail') {
        if (uncertain !== undefined && !isRead) throw new UnknownOutcomeError(`${method} ${path}: retry after an unknown outcome failed`, { cause: outcome.error });
        throw outcome.error;
      }
      lastError = outcome.error;
      if (!outcome.notApplied && !isRead) {
        if (!casPut) throw new UnknownOutcomeError(`${method} ${path}: outcome unknown`, { cause: outcome.error });
        uncertain = outcome.error;
      }
    }
    if (uncertain !== undefined) throw new UnknownOutcomeError(`${method} ${path}: outcome unknown after ${attemptsMax} attempts`, { cause: lastError });
    throw new UnavailableError(`${method} ${path}: no endpoint answered after ${attemptsMax} attempts`, { cause: lastError });
  }

  /**
   * One attempt with the provider's credential; after a 401, one more on the same endpoint with a
   * fresh credential when the provider can give one. Safe for writes: a 401 is refused before any
   * processing. A provider failure (e.g. ExecPluginError) rejects, failing the request.
   */
  private async authenticatedAttempt(endpoint: Endpoint, method: string, path: string, options: RequestOptions): Promise<Outcome> {
    const used = await this.currentCredentials();
    const outcome = await this.attempt(endpoint, method, path, options, used);
    if (!isUnauthorized(outcome) || !this.credentials.invalidate(used)) return outcome;
    return this.attempt(endpoint, method, path, options, await this.currentCredentials());
  }

  /** The provider's credential; a new client certificate in it switches the pools first. */
  private async currentCredentials(): Promise<Credentials> {
    const credentials = await this.credentials.get();
    // Only the credential still in force may switch pools, so a slow request holding an older
    // one cannot switch them back.
    if (credentials.clientCertPem !== undefined && credentials.clientKeyPem !== undefined && this.credentials.peek() === credentials) {
      this.pools.useClientCertificate(credentials.clientCertPem, credentials.clientKeyPem);
    }
    return credentials;
  }

  private async attempt(endpoint: Endpoint, method: string, path: string, options: RequestOptions, credentials: Credentials): Promise<Outcome> {
    const pool = this.pools.get(endpoint);
    endpoint.outstanding += 1;
    try {
      const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      const response = await pool.request({
        method: method as 'GET',
        path: requestTarget(path, options.query),
        headers: this.headers(options, body !== undefined, credentials),
        ...(body === undefined ? {} : { body }),
        headersTimeout: this.options.requestTimeoutMs ?? limits.requestTimeoutMs,
        bodyTimeout: this.options.requestTimeoutMs ?? limits.requestTimeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const text = await readBodyText(response.body);
      return this.classifyAnswer(endpoint, response.statusCode, text);
    } catch (error) {
      if (isAbortError(error)) return { kind: 'fail', error };
      endpoint.recordFailure();
      return { kind: 'retry', notApplied: isNotSentError(error), error };
    } finally {
      endpoint.outstanding -= 1;
    }
  }

  private classifyAnswer(endpoint: Endpoint, status: number, text: string): Outcome {
    if (status === 503) endpoint.recordFailure();
    else endpoint.recordSuccess();
    if (status >= 200 && status < 300) {
      if (text === '') return { kind: 'ok', value: undefined };
      try {
        return { kind: 'ok', value: JSON.parse(text) as unknown };
      } catch {
        return { kind: 'ok', value: text };
      }
    }
    const error = apiErrorFromResponse(status, text, endpoint.url);
    if (status === 503 || status === 429) return { kind: 'retry', notApplied: true, error };
    if (status === 504) return { kind: 'retry', notApplied: false, error };
    return { kind: 'fail', error };
  }

  /**
   * Opens a streaming GET (a watch) with one attempt; the watch loop owns retries. Endpoints in
   * `avoid` are used only when nothing else is available. A non-2xx answer throws ApiError
   * (410 included, so the caller can relist); a transport error ejects the endpoint and is rethrown.
   * With `silenceTimeoutMs`, the body fails (UND_ERR_BODY_TIMEOUT) after that long without a byte.
   */
  async openStream(path: string, query: Query, avoid: ReadonlySet<Endpoint> = new Set(), signal?: AbortSignal, silenceTimeoutMs = 0): Promise<OpenStream> {
    const endpoint = this.pickFor(avoid);
    const used = await this.currentCredentials();
    try {
      return await this.openStreamOn(endpoint, path, query, used, signal, silenceTimeoutMs);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401) || !this.credentials.invalidate(used)) throw error;
      return this.openStreamOn(endpoint, path, query, await this.currentCredentials(), signal, silenceTimeoutMs);
    }
  }

  private async openStreamOn(endpoint: Endpoint, path: string, query: Query, credentials: Credentials, signal: AbortSignal | undefined, silenceTimeoutMs: number): Promise<OpenStream> {
    try {
      const response = await this.pools.get(endpoint).request({
        method: 'GET',
        path: requestTarget(path, query),
        headers: this.headers({}, false, credentials),
        headersTimeout: this.options.requestTimeoutMs ?? limits.requestTimeoutMs,
        bodyTimeout: silenceTimeoutMs,
        ...(signal === undefined ? {} : { signal }),
      });
      if (response.statusCode >= 200 && response.statusCode < 300) {
        endpoint.recordSuccess();
        return { endpoint, body: response.body };
      }
      const text = await readBodyText(response.body);
      if (response.statusCode === 503) endpoint.recordFailure();
      throw apiErrorFromResponse(response.statusCode, text, endpoint.url);
    } catch (error) {
      if (!(error instanceof ApiError) && !isAbortError(error)) endpoint.recordFailure();
      throw error;
    }
  }

  /** Tells the client that a stream it opened on `endpoint` broke with a transport error. */
  reportStreamFailure(endpoint: Endpoint): void {
    endpoint.recordFailure();
  }

  /** Closes every connection pool; in-flight requests fail. */
  async close(): Promise<void> {
    await this.pools.destroy();
  }

  private pickFor(avoid: ReadonlySet<Endpoint>): Endpoint {
    this.startDueProbes();
    return this.balancer.pick(avoid);
  }

  private headers(options: RequestOptions, hasBody: boolean, credentials: Credentials | undefined): Record<string, string> {
    return {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'orch-client',
      ...(credentials?.token === undefined ? {} : { authorization: `Bearer ${credentials.token}` }),
      ...(hasBody ? { 'content-type': options.contentType ?? 'application/json' } : {}),
      ...options.headers,
    };
  }

  /** Starts a /readyz probe for each ejected endpoint whose ejection period has passed. */
  private startDueProbes(): void {
    for (const endpoint of this.balancer.endpoints) {
      if (!endpoint.beginProbe()) continue;
      void this.probe(endpoint).then((ready) => endpoint.endProbe(ready));
    }
  }

  private async probe(endpoint: Endpoint): Promise<boolean> {
    try {
      // A probe never runs a plugin: it presents the credential in force, if any.
      const response = await this.pools.get(endpoint).request({
        method: 'GET', path: '/readyz', headers: this.headers({}, false, this.credentials.peek()),
        headersTimeout: limits.probeTimeoutMs, bodyTimeout: limits.probeTimeoutMs,
      });
      await readBodyText(response.body);
      return response.statusCode === 200;
    } catch {
      return false;
    }
  }
}

function isUnauthorized(outcome: Outcome): boolean {
  return outcome.kind === 'fail' && outcome.error instanceof ApiError && outcome.error.status === 401;
}

/** The (process-wide, see sharedExecCredentialProvider) exec plugin provider of a context whose user names one; undefined otherwise. */
function execProviderOf(context: ResolvedContext): ExecCredentialProvider | undefined {
  const exec = context.user.exec;
  if (exec === undefined) return undefined;
  const { server, caPem, insecureSkipTlsVerify, execExtension } = context.cluster;
  return sharedExecCredentialProvider(exec, {
    server, insecureSkipTlsVerify, ...(caPem === undefined ? {} : { caPem }), ...(execExtension === undefined ? {} : { config: execExtension }),
  });
}
