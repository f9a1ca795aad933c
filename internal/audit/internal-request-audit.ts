// The audit of a request the server makes of itself, with no HTTP in between: a controller's read
// or write through its stores (kube-controller-manager's client calls) or the API server's own
// (kube-apiserver's loopback client as system:apiserver). The events are those kube-apiserver
// writes for that client's HTTP request, made by the same RequestAudit (policy, stages, levels,
// managed fields, encoding): a fresh audit ID, the URI the client would send, the loopback address
// as the source (orch's controllers share the server's process) and a user agent naming the
// component as kube's clients do (`<binary>/<version> (<os>/<arch>) kubernetes/<commit>/<component>`).
import { randomUUID } from 'node:crypto';
import type { UserInfo } from '../authn/user-info.ts';
import type { Decision } from '../authz/authorizer.ts';
import { resourceAttributes } from '../authz/request-attributes.ts';
import { StatusError, internalError } from '../registry/errors/status-error.ts';
import type { Auditor } from './auditor.ts';
import { RequestAudit } from './request-audit.ts';
import { gitVersion } from '../version.ts';

/** The object an in-process request is about. */
export interface InternalObjectRef {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** An in-process request: who makes it, what it does, and the component making it. */
export interface InternalRequest {
  readonly user: UserInfo;
  readonly verb: string;
  readonly objectRef: InternalObjectRef;
  /** A list's options, written into the URI as the client sends them. */
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  /** The controller (or server part) making the request: the last segment of the user agent. */
  readonly component: string;
}

/** kube's loopback address: where an in-process request comes from. */
export const internalSourceIp = '127.0.0.1';


/** The user agent of `component`, shaped as kube-controller-manager's (`orch/<version> (<os>/<arch>) kubernetes/orch/<component>`). */
export function internalUserAgent(component: string): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return `orch/${gitVersion} (${process.platform}/${arch}) kubernetes/orch/${component}`;
}

/** The verbs sent to the collection's URI (no name in the path). */
const collectionVerbs: ReadonlySet<string> = new Set(['list', 'watch', 'create', 'deletecollection']);

/** The URI kube's client sends for this request (`/api/v1/namespaces/ns/configmaps/name`, `/apis/g/v/...`). */
export function internalRequestUri(verb: string, ref: InternalObjectRef, query: InternalRequest['query']): string {
  const parts = [ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`];
  if (ref.namespace !== undefined && ref.namespace !== '') parts.push('namespaces', encodeURIComponent(ref.namespace));
  parts.push(ref.resource);
  if (!collectionVerbs.has(verb) && ref.name !== undefined && ref.name !== '') parts.push(encodeURIComponent(ref.name));
  if (ref.subresource !== undefined && ref.subresource !== '') parts.push(ref.subresource);
  const params = new URLSearchParams();
  if (verb === 'watch') params.set('watch', 'true');
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return parts.join('/') + (search === '' ? '' : `?${search}`);
}

/** The audit of one in-process request, driven by the code that makes it. */
export class InternalRequestAudit {
  private constructor(private readonly audit: RequestAudit) {}

  /**
   * Judges `request` by the policy and writes RequestReceived; undefined when audit is off. Throws
   * kube's 500 when a strict backend could not store that event (as WithAudit refuses the request).
   */
  static begin(auditor: Auditor | undefined, request: InternalRequest): InternalRequestAudit | undefined {
    if (auditor === undefined) return undefined;
    const { user, verb, objectRef: ref, component } = request;
    const audited = { url: internalRequestUri(verb, ref, request.query), headers: { 'user-agent': internalUserAgent(component) }, remoteAddress: internalSourceIp, peerCertificatePresented: () => false };
    const audit = new RequestAudit(auditor, audited, randomUUID());
    const attributes = resourceAttributes(user, {
      verb, apiGroup: ref.group, apiVersion: ref.version, resource: ref.resource,
      ...(ref.namespace === undefined ? {} : { namespace: ref.namespace }), ...(ref.subresource === undefined ? {} : { subresource: ref.subresource }), ...(ref.name === undefined ? {} : { name: ref.name }),
    });
    if (!audit.begin(attributes)) throw new StatusError(500, 'InternalError', 'failed to store audit event');
    return new InternalRequestAudit(audit);
  }

  /** The authorizer's decision (the annotations authorization.k8s.io/decision and reason). */
  authorized(decision: Decision): void {
    this.audit.authorized(decision);
  }

  /** The object sent (create, update): kept from level Request. */
  requestObject(obj: unknown): void {
    this.audit.logRequestObject(obj);
  }

  /** The request succeeded with `code` and `body`: writes ResponseComplete. */
  succeeded(code: number, body: unknown): void {
    this.audit.answered(code, body);
    this.audit.end();
  }

  /** A watch started (its ResponseStarted); `ended` writes its ResponseComplete. */
  streamStarted(): void {
    this.audit.streamStarted(200);
  }

  /** The watch ended (stopped, or closed by the store): ResponseComplete, once. */
  ended(): void {
    this.audit.end();
  }

  /** The request failed: its Status (an unexpected error is kube's 500) in ResponseComplete. */
  failed(err: unknown): void {
    const status = err instanceof StatusError ? err : internalError(err instanceof Error ? err.message : String(err));
    this.audit.answered(status.code, status.toStatus());
    this.audit.end();
  }
}
