// PodTolerationRestriction's configuration, kind Configuration of
// podtolerationrestriction.admission.<domain>/v1alpha1: cluster-wide `default` tolerations (for
// namespaces without the annotation) and a cluster-wide `whitelist`. Both lists are validated
// as pod tolerations are.
import { validateTolerations } from '../../../registry/core/pod-scheduling-validation.ts';
import type { Toleration } from './tolerations.ts';

/** The parsed configuration. */
export interface PodTolerationRestrictionConfig {
  readonly defaults: readonly Toleration[];
  readonly whitelist: readonly Toleration[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tolerationList(config: Record<string, unknown>, name: string): Toleration[] {
  const value = config[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isRecord)) throw new Error(`PodTolerationRestriction: ${name} must be a list of tolerations`);
  return value;
}

/** Parses the configuration (undefined: nothing configured). Throws an Error naming what is wrong. */
export function parsePodTolerationRestrictionConfig(configuration: unknown, apiDomain: string): PodTolerationRestrictionConfig {
  if (configuration === undefined || configuration === null) return { defaults: [], whitelist: [] };
  if (!isRecord(configuration)) throw new Error('PodTolerationRestriction: the configuration must be a mapping');
  const apiVersion = `podtolerationrestriction.admission.${apiDomain}/v1alpha1`;
  if (configuration['kind'] !== 'Configuration' || configuration['apiVersion'] !== apiVersion) {
    throw new Error(`PodTolerationRestriction: expected kind "Configuration" of apiVersion "${apiVersion}", got kind ${JSON.stringify(configuration['kind'] ?? '')} of ${JSON.stringify(configuration['apiVersion'] ?? '')}`);
  }
  const defaults = tolerationList(configuration, 'default');
  const whitelist = tolerationList(configuration, 'whitelist');
  const errors = [...validateTolerations(defaults, 'podtolerationrestriction.default'), ...validateTolerations(whitelist, 'podtolerationrestriction.whitelist')];
  if (errors.length > 0) throw new Error(`invalid config: [${errors.map((e) => `${e.field}: ${e.message}`).join(' ')}]`);
  return { defaults, whitelist };
}
