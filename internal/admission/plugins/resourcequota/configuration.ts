// The ResourceQuota plugin's configuration file (apiserver.config.k8s.io/v1
// ResourceQuotaConfiguration): `limitedResources` names resources whose consumption needs a
// covering quota (`matchContains` picks the usage names, `matchScopes` the pod scopes).
import type { ScopeRequirement } from '../../../quota/evaluator.ts';

/** One entry of limitedResources. */
export interface LimitedResource {
  readonly apiGroup: string;
  readonly resource: string;
  readonly matchContains: readonly string[];
  readonly matchScopes: readonly ScopeRequirement[];
}

/** The parsed configuration; empty when the AdmissionConfiguration gives none. */
export interface QuotaConfiguration {
  readonly limitedResources: readonly LimitedResource[];
}

/** The apiVersion/kind pairs kube's scheme decodes this configuration from. */
const accepted = new Set([
  'apiserver.config.k8s.io/v1 ResourceQuotaConfiguration',
  'apiserver.config.k8s.io/v1beta1 ResourceQuotaConfiguration',
  'apiserver.config.k8s.io/v1alpha1 ResourceQuotaConfiguration',
  'resourcequota.admission.k8s.io/v1beta1 Configuration',
  'resourcequota.admission.k8s.io/v1alpha1 Configuration',
]);

type Json = Record<string, unknown>;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function scopes(value: unknown): ScopeRequirement[] {
  const items = Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];
  return items.map((s) => ({ scopeName: String(s.scopeName ?? ''), operator: String(s.operator ?? ''), values: strings(s.values) }));
}

/**
 * Parses and validates the configuration (LoadConfiguration, ValidateConfiguration); throws an
 * Error naming the problem, as kube refuses to start with a bad one.
 */
export function parseQuotaConfiguration(configuration: unknown): QuotaConfiguration {
  if (configuration === undefined || configuration === null) return { limitedResources: [] };
  if (typeof configuration !== 'object' || Array.isArray(configuration)) throw new Error('ResourceQuota configuration must be an object');
  const c = configuration as Json;
  const typeName = `${String(c.apiVersion ?? '')} ${String(c.kind ?? '')}`;
  if (!accepted.has(typeName)) throw new Error(`ResourceQuota configuration: no kind "${String(c.kind ?? '')}" is registered for version "${String(c.apiVersion ?? '')}"`);
  const raw = Array.isArray(c.limitedResources) ? c.limitedResources : [];
  const problems: string[] = [];
  const limitedResources = raw.map((item: unknown, i): LimitedResource => {
    const r = (typeof item === 'object' && item !== null ? item : {}) as Json;
    const resource = typeof r.resource === 'string' ? r.resource : '';
    if (resource === '') problems.push(`limitedResources[${i}].resource: Required value`);
    return { apiGroup: typeof r.apiGroup === 'string' ? r.apiGroup : '', resource, matchContains: strings(r.matchContains), matchScopes: scopes(r.matchScopes) };
  });
  if (problems.length > 0) throw new Error(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`);
  return { limitedResources };
}
