// One request's audit (kube's AuditContext with the WithAudit, WithFailedAuthenticationAudit and
// audit response-writer logic): the policy is asked once the caller is known (before
// impersonation); RequestReceived is written then; ResponseComplete is written as the answer is
// about to go out (before its first byte), or ResponseStarted then ResponseComplete for a watch;
// Panic for an unexpected exception. A request that fails before it has a user (authentication)
// gets one ResponseStarted event with no user. Nothing is kept when the level is None.
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../authn/user-info.ts';
import type { Decision } from '../authz/authorizer.ts';
import { authenticationFailedMessage } from './failed-authentication.ts';
import { encodeEvent, type AuditEvent, type ObjectReference, type ResponseStatus } from './event.ts';
import { userAgentCharsMax } from './limits.ts';
import { withoutManagedFields } from './managed-fields.ts';
import type { AuditMetrics } from './metrics.ts';
import { evaluatePolicy, type AuditAttributes } from './policy-checker.ts';
import { levelAtLeast, type AuditConfig, type Policy, type Stage } from './policy.ts';
import type { AuditSink } from './sink.ts';
import { sourceIps } from './source-ips.ts';

/** What the audit reads of the request. */
export interface AuditedRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly remoteAddress: string | undefined;
  /** Whether the client presented a TLS certificate (asked only for a failed authentication). */
  readonly peerCertificatePresented: () => boolean;
}

/** The audit's policy, backends and counters, shared by every request. */
export interface AuditCore {
  readonly policy: Policy;
  readonly sink: AuditSink;
  readonly metrics: AuditMetrics;
}

/** The time now in milliseconds since the epoch, with microseconds. */
export function preciseNowMs(): number {
  return performance.timeOrigin + performance.now();
}

const patchAnnotationPrefix = 'patch.webhook.admission.k8s.io/';

/** kube's annotation keys. */
const decisionKey = 'authorization.k8s.io/decision';
const reasonKey = 'authorization.k8s.io/reason';

/** kube-apiserver's long-running check (BasicLongRunningRequestCheck): their events have a ResponseStarted stage. */
const longRunningVerbs: ReadonlySet<string> = new Set(['watch', 'proxy']);
const longRunningSubresources: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

type State = 'pending' | 'open' | 'streaming' | 'failing' | 'done';

function userAgentOf(headers: IncomingHttpHeaders): string {
  const agent = headers['user-agent'] ?? '';
  return agent.length > userAgentCharsMax ? `${agent.slice(0, userAgentCharsMax)}...TRUNCATED` : agent;
}

function isStatus(body: unknown): body is ResponseStatus & { kind: string } {
  return typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Status' && (body as { apiVersion?: unknown }).apiVersion === 'v1';
}

/** The audit of one request. Every method is cheap when the level is None (the request is not audited). */
export class RequestAudit {
  /** Admission's audit annotations (RequestScope.annotations), first value of a key kept. */
  readonly admissionAnnotations = new Map<string, string>();
  private readonly annotations = new Map<string, string>();
  private state: State = 'pending';
  private config: AuditConfig | undefined;
  private attributes: AuditAttributes | undefined;
  private objectRef: ObjectReference | undefined;
  private impersonatedUser: UserInfo | undefined;
  private responseStatus: ResponseStatus | undefined;
  private requestObject: string | undefined;
  private responseObject: string | undefined;
  private longRunning = false;
  private readonly receivedMs = preciseNowMs();

  constructor(
    private readonly core: AuditCore,
    private readonly request: AuditedRequest,
    readonly auditId: string,
  ) {}

  /**
   * The caller is known: asks the policy and writes RequestReceived. False when that event could
   * not be stored by a strict backend: the request must then be refused (500).
   */
  begin(attributes: AuditAttributes): boolean {
    if (this.state !== 'pending' || !this.configure(attributes)) return true;
    this.state = 'open';
    this.longRunning = attributes.resourceRequest && (longRunningVerbs.has(attributes.verb) || longRunningSubresources.has(attributes.subresource ?? ''));
    if (this.emit('RequestReceived')) return true;
    this.core.metrics.requestRejected();
    this.state = 'done';
    return false;
  }

  /** The user the request goes on as after impersonation. */
  impersonated(user: UserInfo): void {
    if (this.state === 'open') this.impersonatedUser = user;
  }

  /** The authorizer's decision, as kube's WithAuthorization annotates it. */
  authorized(decision: Decision): void {
    if (decision.decision === 'allow') {
      this.annotate(decisionKey, 'allow');
      this.annotate(reasonKey, decision.reason);
    } else if (decision.error !== undefined) this.annotate(reasonKey, 'internal error');
    else {
      this.annotate(decisionKey, 'forbid');
      this.annotate(reasonKey, decision.reason);
    }
  }

  /** Adds an annotation; a key already set keeps its first value (kube logs and ignores the second). */
  annotate(key: string, value: string): void {
    if (this.config !== undefined && !this.annotations.has(key)) this.annotations.set(key, value);
  }

  /** The request was for a deprecated version: `removedRelease` as deprecatedApiRelease gives it, undefined when not deprecated. */
  deprecated(removedRelease: string | undefined): void {
    if (removedRelease === undefined) return;
    this.annotate('k8s.io/deprecated', 'true');
    if (removedRelease !== '') this.annotate('k8s.io/removed-release', removedRelease);
  }

  /** The decoded body of a create, update or delete (kube's LogRequestObject): fills the object reference from its metadata, kept whole from level Request. */
  logRequestObject(obj: unknown): void {
    const config = this.config;
    if (config === undefined || this.state === 'done') return;
    const metadata = typeof obj === 'object' && obj !== null ? (obj as { metadata?: Record<string, unknown> }).metadata : undefined;
    if (typeof metadata === 'object' && metadata !== null) {
      const ref = (this.objectRef ??= {});
      for (const key of ['namespace', 'name', 'uid', 'resourceVersion'] as const) {
        const value = metadata[key];
        if ((ref[key] ?? '') === '' && typeof value === 'string') ref[key] = value;
      }
    }
    if (levelAtLeast(config.level, 'Request')) this.requestObject = JSON.stringify(config.omitManagedFields ? withoutManagedFields(obj) : obj);
  }

  /** The body of a patch as sent (kube's LogRequestPatch), kept from level Request. */
  logRequestPatch(patch: unknown): void {
    const config = this.config;
    if (config !== undefined && this.state !== 'done' && levelAtLeast(config.level, 'Request')) this.requestObject = JSON.stringify(patch);
  }

  /**
   * The answer is about to go out with `code` and, when it is an object, `body` (its JSON as sent
   * in `json`, when the answer is plain JSON): writes the terminal event first.
   */
  answered(code: number, body: unknown, json?: string): void {
    if (this.state !== 'open' && this.state !== 'failing') return;
    const config = this.config;
    if (config === undefined) return;
    if (isStatus(body)) {
      const { status, message, reason, details } = body;
      this.responseStatus = { status, message, reason, details, code: body.code };
    }
    this.responseStatus = { ...this.responseStatus, code };
    if (body !== undefined && levelAtLeast(config.level, 'RequestResponse')) {
      this.responseObject = json !== undefined && !config.omitManagedFields ? json : JSON.stringify(config.omitManagedFields ? withoutManagedFields(body) : body);
    }
    if (this.state === 'failing') return this.finish('ResponseStarted');
    if (this.longRunning) this.emit('ResponseStarted');
    this.finish('ResponseComplete');
  }

  /** Whether `answered` keeps the response object (level RequestResponse): such an answer is not sent in pieces. */
  keepsResponseObject(): boolean {
    return this.config !== undefined && levelAtLeast(this.config.level, 'RequestResponse');
  }

  /** A stream (watch) is about to send its headers with `code`: ResponseStarted. */
  streamStarted(code: number): void {
    if (this.state !== 'open') return;
    this.responseStatus = { ...this.responseStatus, code };
    this.state = 'streaming';
    this.emit('ResponseStarted');
  }

  /**
   * The request failed with `err` (`expected`: an API error or kube's plain 500). Before the
   * caller was known (authentication, a malformed request) the event of a failed request is
   * prepared from `attributes()`; after, an unexpected exception is a Panic.
   */
  failed(err: unknown, context: { readonly expected: boolean; readonly query: URLSearchParams; attributes(): AuditAttributes }): void {
    if (this.state === 'pending') {
      if (!this.configure(context.attributes())) return;
      const code = (err as { code?: unknown } | null)?.code;
      const message = code === 401 ? authenticationFailedMessage(this.request.headers, context.query, this.request.peerCertificatePresented()) : err instanceof Error ? err.message : String(err);
      this.responseStatus = { message };
      this.state = 'failing';
      return;
    }
    if (context.expected || (this.state !== 'open' && this.state !== 'streaming')) return;
    this.responseStatus = { code: 500, status: 'Failure', reason: 'InternalError', message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}` };
    this.finish('Panic');
  }

  /** The request is over (the handler returned): writes what is still owed (a stream's ResponseComplete). */
  end(): void {
    if (this.state === 'failing') return this.finish('ResponseStarted');
    if (this.state !== 'open' && this.state !== 'streaming') return;
    if (this.state === 'open' && this.responseStatus === undefined) {
      // Nothing was answered: kube fakes a success (and a ResponseStarted for a long-running request).
      this.responseStatus = { code: 200, status: 'Success', message: 'Connection closed early' };
      if (this.longRunning) this.emit('ResponseStarted');
    }
    this.finish('ResponseComplete');
  }

  private configure(attributes: AuditAttributes): boolean {
    const config = evaluatePolicy(this.core.policy, attributes);
    this.core.metrics.level(config.level);
    if (config.level === 'None') {
      this.state = 'done';
      return false;
    }
    this.config = config;
    this.attributes = attributes;
    if (attributes.resourceRequest) {
      const { namespace, name, resource, subresource, apiGroup, apiVersion } = attributes;
      this.objectRef = { resource, namespace, name, apiGroup, apiVersion, subresource };
    }
    return true;
  }

  private finish(stage: Stage): void {
    this.state = 'done';
    this.emit(stage);
  }

  private mergedAnnotations(): Map<string, string> {
    if (this.admissionAnnotations.size === 0) return new Map(this.annotations);
    const withPatches = this.config !== undefined && levelAtLeast(this.config.level, 'Request');
    const merged = new Map(this.annotations);
    for (const [key, value] of this.admissionAnnotations) {
      if (!merged.has(key) && (withPatches || !key.startsWith(patchAnnotationPrefix))) merged.set(key, value);
    }
    return merged;
  }

  /** Writes the event at `stage` unless the policy omits it; false when a strict backend could not store it. */
  private emit(stage: Stage): boolean {
    const { config, attributes } = this;
    if (config === undefined || attributes === undefined) throw new Error('assert: an audit event is written only once the policy gave a level');
    if (config.omitStages.includes(stage)) return true;
    const event: AuditEvent = {
      level: config.level,
      auditID: this.auditId,
      stage,
      requestURI: this.request.url,
      verb: attributes.verb,
      user: attributes.user,
      ...(this.impersonatedUser === undefined ? {} : { impersonatedUser: this.impersonatedUser }),
      sourceIPs: sourceIps(this.request.headers, this.request.remoteAddress),
      userAgent: userAgentOf(this.request.headers),
      ...(this.objectRef === undefined ? {} : { objectRef: { ...this.objectRef } }),
      ...(this.responseStatus === undefined ? {} : { responseStatus: { ...this.responseStatus } }),
      ...(this.requestObject === undefined ? {} : { requestObject: this.requestObject }),
      ...(this.responseObject === undefined ? {} : { responseObject: this.responseObject }),
      requestReceivedMs: this.receivedMs,
      stageMs: stage === 'RequestReceived' ? this.receivedMs : preciseNowMs(),
      annotations: this.mergedAnnotations(),
    };
    this.core.metrics.event();
    return this.core.sink.processEvents([{ event, json: encodeEvent(event) }]);
  }
}
