// PodNodeSelector's configuration: the file kube reads has one key, podNodeSelectorPluginConfig,
// a map whose `clusterDefaultNodeSelector` entry is the selector for namespaces without the
// annotation and whose other entries, keyed by namespace, are the selectors a namespace's pods
// must stay within. Selectors are checked here, at start, rather than on every request.
import { parseLabelSet } from './label-set.ts';
import type { LabelSet } from './label-set.ts';

/** The parsed configuration. */
export interface PodNodeSelectorConfig {
  /** The selector for namespaces without the annotation ('' parses to the empty set). */
  readonly clusterDefault: LabelSet;
  /** Per namespace: the labels its pods' node selectors must stay within. */
  readonly whitelists: ReadonlyMap<string, LabelSet>;
}

/** The key naming the cluster-wide default inside podNodeSelectorPluginConfig. */
export const clusterDefaultKey = 'clusterDefaultNodeSelector';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entry's value under `key`, matched without regard to case as Go's JSON decoder does. */
function entry(config: Record<string, unknown>, key: string): unknown {
  const found = Object.keys(config).find((k) => k.toLowerCase() === key.toLowerCase());
  return found === undefined ? undefined : config[found];
}

/** Parses the plugin's configuration (undefined: no defaults, no whitelists). Throws naming the bad field. */
export function parsePodNodeSelectorConfig(configuration: unknown): PodNodeSelectorConfig {
  if (configuration === undefined || configuration === null) return { clusterDefault: {}, whitelists: new Map() };
  if (!isRecord(configuration)) throw new Error('PodNodeSelector: the configuration must be a mapping');
  const selectors = entry(configuration, 'podNodeSelectorPluginConfig') ?? {};
  if (!isRecord(selectors)) throw new Error('PodNodeSelector: podNodeSelectorPluginConfig must be a mapping of names to selectors');
  const parsed = new Map<string, LabelSet>();
  for (const [name, selector] of Object.entries(selectors)) {
    if (typeof selector !== 'string') throw new Error(`PodNodeSelector: podNodeSelectorPluginConfig.${name} must be a string`);
    try {
      parsed.set(name, parseLabelSet(selector));
    } catch (error) {
      throw new Error(`PodNodeSelector: podNodeSelectorPluginConfig.${name}: ${(error as Error).message}`);
    }
  }
  return { clusterDefault: parsed.get(clusterDefaultKey) ?? {}, whitelists: parsed };
}
