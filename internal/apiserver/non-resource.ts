import type { ResourceRegistry } from '../registry/resource-registry.ts';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.ts';
import { runHealth, type HealthCheck } from './health.ts';
import type { ApiMetrics } from './metrics.ts';
import { negotiateResponse } from './negotiation.ts';
import type { OpenApiDocuments } from './openapi.ts';
import type { Responder } from './respond.ts';
import { pathNotFound, methodNotAllowed } from './handlers/dispatch.ts';

/** What the non-resource endpoints read. */
export interface NonResourceDeps {
  readonly registry: ResourceRegistry;
  readonly health: ReadonlyMap<string, ReadonlyMap<string, HealthCheck>>;
  readonly metrics: ApiMetrics;
  readonly openapi: OpenApiDocuments;
  readonly serverAddress: string;
}

function discovery(deps: NonResourceDeps, parts: readonly string[]): unknown {
  const { registry } = deps;
  if (parts[0] === 'api') {
    if (parts.length === 1) return apiVersions(deps.serverAddress);
    if (parts.length === 2) return apiResourceList(registry, '', parts[1] ?? '');
    return undefined;
  }
  if (parts.length === 1) return apiGroupList(registry);
  if (parts.length === 2) return apiGroup(registry, parts[1] ?? '');
  if (parts.length === 3) return apiResourceList(registry, parts[1] ?? '', parts[2] ?? '');
  return undefined;
}

/** Serves discovery, /version, OpenAPI, health and metrics. Throws StatusError 404/405/406. */
export async function serveNonResource(deps: NonResourceDeps, method: string, path: string, query: URLSearchParams, accept: string | undefined, out: Responder): Promise<void> {
  const parts = path.split('/').filter((p) => p !== '');
  const first = parts[0] ?? '';
  const healthEndpoint = deps.health.get(first);
  if (method !== 'GET' && method !== 'HEAD') throw (healthEndpoint || ['api', 'apis', 'version', 'metrics', 'openapi'].includes(first) ? methodNotAllowed() : pathNotFound());
  if (healthEndpoint) {
    const answer = await runHealth(first, healthEndpoint, path, query);
    out.sendText(answer.code, answer.text);
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
    out.options.format = negotiateResponse(accept, deps.registry.apiDomain, false) === 'yaml' ? 'yaml' : 'json';
    out.send(200, doc);
    return;
  }
  const body = path === '/version' ? versionInfo() : first === 'api' || first === 'apis' ? discovery(deps, parts) : undefined;
  if (body === undefined) throw pathNotFound();
  out.options.format = negotiateResponse(accept, deps.registry.apiDomain, false);
  out.send(200, body);
}
