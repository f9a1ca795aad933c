// EventRateLimit's configuration, kind Configuration of eventratelimit.admission.<domain>/v1alpha1:
// `limits[]`, each a bucket type (Server: one bucket for all Events; Namespace, User,
// SourceAndObject: one bucket per key, the most recent `cacheSize` keys kept), a refill rate
// `qps` and a bucket size `burst`. Checked as kube's validation checks it, with its messages.

/** The kinds of bucket key. */
export type LimitType = 'Server' | 'Namespace' | 'User' | 'SourceAndObject';

/** One configured limit. */
export interface Limit {
  readonly type: LimitType;
  readonly qps: number;
  readonly burst: number;
  /** Keys kept (0: the default); unused for Server. */
  readonly cacheSize: number;
}

const limitTypes: readonly LimitType[] = ['Namespace', 'Server', 'SourceAndObject', 'User'];
const int32Max = 2 ** 31 - 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function integerField(limit: Record<string, unknown>, name: string, path: string, problems: string[]): number {
  const value = limit[name] ?? 0;
  if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= int32Max) return value;
  problems.push(`${path}.${name}: Invalid value: ${JSON.stringify(value)}: must be an integer of 32 bits`);
  return 0;
}

function parseLimit(raw: unknown, index: number, problems: string[]): Limit | undefined {
  const path = `limits[${index}]`;
  if (!isRecord(raw)) {
    problems.push(`${path}: Invalid value: ${JSON.stringify(raw)}: must be a mapping`);
    return undefined;
  }
  const type = typeof raw['type'] === 'string' ? raw['type'] : '';
  if (!limitTypes.includes(type as LimitType)) problems.push(`${path}.type: Unsupported value: ${JSON.stringify(type)}: supported values: ${limitTypes.map((t) => `"${t}"`).join(', ')}`);
  const [burst, qps, cacheSize] = ['burst', 'qps', 'cacheSize'].map((name) => integerField(raw, name, path, problems)) as [number, number, number];
  if (burst <= 0) problems.push(`${path}.burst: Invalid value: ${burst}: must be positive`);
  if (qps <= 0) problems.push(`${path}.qps: Invalid value: ${qps}: must be positive`);
  if (type !== 'Server' && cacheSize < 0) problems.push(`${path}.cacheSize: Invalid value: ${cacheSize}: must not be negative`);
  return { type: type as LimitType, qps, burst, cacheSize };
}

/**
 * Parses and checks the configuration; throws an Error with kube's field messages (one, or
 * `[a, b]` for several). The configuration is required: with none, there are no limits, which
 * kube refuses.
 */
export function parseEventRateLimitConfig(configuration: unknown, apiDomain: string): Limit[] {
  const apiVersion = `eventratelimit.admission.${apiDomain}/v1alpha1`;
  if (configuration !== undefined && configuration !== null) {
    if (!isRecord(configuration)) throw new Error('EventRateLimit: the configuration must be a mapping');
    if (configuration['kind'] !== 'Configuration' || configuration['apiVersion'] !== apiVersion) {
      throw new Error(`EventRateLimit: expected kind "Configuration" of apiVersion "${apiVersion}", got kind ${JSON.stringify(configuration['kind'] ?? '')} of ${JSON.stringify(configuration['apiVersion'] ?? '')}`);
    }
  }
  const raw = isRecord(configuration) ? configuration['limits'] : undefined;
  const problems: string[] = [];
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) problems.push(`limits: Invalid value: ${JSON.stringify(raw)}: must be a list`);
  const list: unknown[] = Array.isArray(raw) ? raw : [];
  if (list.length === 0) problems.push(`limits: Invalid value: ${Array.isArray(raw) ? '[]eventratelimit.Limit{}' : '[]eventratelimit.Limit(nil)'}: must not be empty`);
  const limits = list.map((item, i) => parseLimit(item, i, problems));
  if (problems.length === 1) throw new Error(problems[0]);
  if (problems.length > 1) throw new Error(`[${problems.join(', ')}]`);
  return limits.filter((l): l is Limit => l !== undefined);
}
