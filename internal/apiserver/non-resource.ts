import type { IncomingHttpHeaders } from 'node:http';
import type { ResourceRegistry } from '../registry/resource-registry.ts';
import { aggregatedDiscovery, aggregatedDiscoveryProtobuf } from './aggregated-discovery.ts';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, apiVersionsTyped, versionInfo } from './discovery.ts';
import { runHealth, type HealthCheck } from './health.ts';
import type { ApiMetrics } from './metrics.ts';
import { aggregatedDiscoveryParams, negotiateDiscovery, negotiateResponse, type EndpointOffers } from './negotiation.ts';
import type { OpenApiDocuments } from './openapi.ts';
import type { Responder } from './respond.ts';
import { pathNotFound, methodNotAllowed } from './handlers/dispatch.ts';
import { groupVersionNotFound } from './handlers/route-errors.ts';
import type { BodySource } from './body.ts';
import type { MaintenanceBackend } from './maintenance/backend.ts';
import { maintenancePathPrefix, serveMaintenance } from './maintenance/serve-maintenance.ts';
import type { FlowControl } from '../flowcontrol/flow-control.ts';
import { dumpPriorityLevels, dumpQueues } from '../flowcontrol/debug-dump.ts';

/** What the non-resource endpoints read. */
export interface NonResourceDeps {
  readonly registry: ResourceRegistry;
  readonly health: ReadonlyMap<string, ReadonlyMap<string, HealthCheck>>;
  readonly metrics: ApiMetrics;
  readonly openapi: OpenApiDocuments;
  readonly serverAddress: string;
  /** The replica's maintenance API under /orch/ (none: those paths are 404). */
  readonly maintenance?: MaintenanceBackend;
  /** API Priority and Fairness, whose state /debug/api_priority_and_fairness/ dumps (none: those paths are 404). */
  readonly priorityAndFairness?: FlowControl;
  /** How long a request body may take to arrive whole (the maintenance API's POST bodies). */
  readonly bodyTimeoutMs: number;
  readonly log: (message: string, err?: unknown) => void;
}

/**
 * `/api` and `/apis`: the aggregated document when `Accept` asks for it (with an ETag, and 304
 * for a matching If-None-Match, as upstream's aggregated handler), else APIVersions / APIGroupList.
 */
function serveDiscoveryRoot(deps: NonResourceDeps, core: boolean, headers: IncomingHttpHeaders, out: Responder): void {
  const { format, protobuf, aggregated } = negotiateDiscovery(headers.accept);
  out.options.format = format;
  out.options.protobuf = protobuf;
  if (!aggregated) {
    // APIVersions is written without an apiVersion in JSON; Protobuf's typeMeta names it v1.
    out.send(200, core ? (protobuf === undefined ? apiVersions(deps.serverAddress) : apiVersionsTyped(deps.serverAddress)) : apiGroupList(deps.registry));
    return;
  }
  const { document, hash } = aggregatedDiscovery(deps.registry, core);
  // One ETag whatever the encoding (upstream hashes the JSON form), hence Vary: Accept.
  const caching = { ETag: `"${hash}"`, Vary: 'Accept', 'Cache-Control': 'public' };
  if (headers['if-none-match'] === caching.ETag) {
    out.sendNotModified(caching);
    return;
  }
  if (protobuf !== undefined) {
    out.sendBytes(200, `${protobuf}${aggregatedDiscoveryParams}`, aggregatedDiscoveryProtobuf(deps.registry, core), caching);
    return;
  }
  const { mediaType, data } = out.encode(document);
  out.sendBytes(200, `${mediaType}${aggregatedDiscoveryParams}`, data, caching);
}

/** The group and group-version documents: JSON, YAML or Protobuf, no views (DefaultEndpointRestrictions). */
const discoveryOffers: EndpointOffers = { views: false, protobuf: () => true };

/** /version and the OpenAPI documents: JSON or YAML only, no views. */
const textOffers: EndpointOffers = { views: false, protobuf: () => false };

/** The group and group-version documents under `/api` and `/apis`, or undefined. */
function discovery(deps: NonResourceDeps, parts: readonly string[]): unknown {
  const { registry } = deps;
  if (parts[0] === 'api') {
    if (parts.length === 2) return apiResourceList(registry, '', parts[1] ?? '');
    return undefined;
  }
  if (parts.length === 2) return apiGroup(registry, parts[1] ?? '');
  if (parts.length === 3) return apiResourceList(registry, parts[1] ?? '', parts[2] ?? '');
  return undefined;
}

/** Serves discovery, /version, OpenAPI, health, metrics and the maintenance API. Throws StatusError 404/405/406 (and the maintenance API's). */
export async function serveNonResource(deps: NonResourceDeps, method: string, path: string, query: URLSearchParams, headers: IncomingHttpHeaders, request: BodySource, out: Responder): Promise<void> {
  const { accept } = headers;
  const parts = path.split('/').filter((p) => p !== '');
  const first = parts[0] ?? '';
  if (deps.maintenance !== undefined && path.startsWith(maintenancePathPrefix)) {
    await serveMaintenance(deps.maintenance, { method, path, body: request, out, bodyTimeoutMs: deps.bodyTimeoutMs, log: deps.log });
    return;
  }
  const healthEndpoint = deps.health.get(first);
  if (method !== 'GET' && method !== 'HEAD') throw (healthEndpoint || ['api', 'apis', 'version', 'metrics', 'openapi'].includes(first) ? methodNotAllowed() : pathNotFound());
  if (healthEndpoint) {
    const answer = await runHealth(first, healthEndpoint, path, query);
    out.sendText(answer.code, answer.text);
    return;
  }
  if (deps.priorityAndFairness !== undefined && path === '/debug/api_priority_and_fairness/dump_priority_levels') {
    out.sendText(200, dumpPriorityLevels(deps.priorityAndFairness.report()));
    return;
  }
  if (deps.priorityAndFairness !== undefined && path === '/debug/api_priority_and_fairness/dump_queues') {
    out.sendText(200, dumpQueues(deps.priorityAndFairness.report()));
    return;
  }
  if (path === '/metrics') {
    const { contentType, text } = await deps.metrics.render();
    out.sendText(200, text, contentType);
    return;
  }
  if (path === '/openapi/v2' && /application\/com\.github\.proto-openapi\.spec\.v2@v1\.0\+protobuf/.test(accept ?? '')) {
    out.sendBytes(200, 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', deps.openapi.v2Protobuf());
    return;
  }
  if (first === 'openapi') {
    const doc = deps.openapi.find(path);
    if (doc === undefined) throw pathNotFound();
    out.options.format = negotiateResponse(accept, deps.registry.apiDomain, textOffers).format === 'yaml' ? 'yaml' : 'json';
    out.sendDocument(200, doc);
    return;
  }
  if ((first === 'api' || first === 'apis') && parts.length === 1) {
    serveDiscoveryRoot(deps, first === 'api', headers, out);
    return;
  }
  const version = path === '/version' || path === '/version/';
  const body = version ? versionInfo() : first === 'api' || first === 'apis' ? discovery(deps, parts) : undefined;
  if (body === undefined) throw first === 'apis' && parts.length === 3 ? groupVersionNotFound(deps.registry.apiDomain, parts[1] ?? '', parts[2] ?? '') : pathNotFound();
  const negotiated = negotiateResponse(accept, deps.registry.apiDomain, version ? textOffers : discoveryOffers);
  out.options.format = negotiated.format;
  out.options.protobuf = negotiated.protobuf;
  // /version is raw JSON in kube (WriteRawJSON): no response object in its audit event.
  if (version) out.sendDocument(200, body);
  else out.send(200, body);
}
