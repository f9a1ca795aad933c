// EventRateLimit: bounds how fast Events (core group) may be written, so a crash-looping
// controller cannot flood the store. Every configured limit takes a token for each event
// written (dry runs are free); if any is out of tokens the write is refused with 429.
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';
import { parseEventRateLimitConfig } from './config.ts';
import { LimitEnforcer } from './limit-enforcer.ts';

/** The plugin's name as kube-apiserver registers it. */
export const eventRateLimitName = 'EventRateLimit';

/**
 * Makes EventRateLimit. Configuration (required): `{apiVersion:
 * eventratelimit.admission.<domain>/v1alpha1, kind: Configuration, limits: [{type, qps, burst,
 * cacheSize}]}`. Throws on a missing or malformed one. Buckets refill on `deps.clock`.
 */
export const eventRateLimitPlugin: PluginFactory = (deps, configuration) => {
  const enforcers = parseEventRateLimitConfig(configuration, deps.apiDomain).map((limit) => new LimitEnforcer(limit, deps.clock));
  const validate = async (attributes: AdmissionAttributes): Promise<void> => {
    if (attributes.kind.group !== '' || attributes.kind.kind !== 'Event') return;
    if (attributes.dryRun) return;
    // Every limit takes its token, even when an earlier one has already refused (as kube does).
    const refusals = enforcers.map((enforcer) => enforcer.accept(attributes)).filter((r): r is string => r !== undefined);
    if (refusals.length === 0) return;
    const text = refusals.length === 1 ? refusals[0] : `[${refusals.join(', ')}]`;
    throw new StatusError(429, 'TooManyRequests', `Too many requests: ${text}`);
  };
  const plugin: AdmissionPlugin = { name: eventRateLimitName, handles: (operation) => operation === 'CREATE' || operation === 'UPDATE', validate };
  return plugin;
};
