// Reads the namespace a pod or workload is written to, as kube's NamespaceGetter does: the
// informer's copy first, then a live read in case the namespace is too new to have reached it.
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { PluginState } from './plugin-state.ts';

const namespaces = { group: '', resource: 'namespaces' } as const;

/** The namespace, or an Error saying why it could not be read (not found included). */
export async function lookupNamespace(state: PluginState, name: string): Promise<KObject | Error> {
  try {
    const cached = await state.objects.get(namespaces, undefined, name);
    if (cached !== undefined) return cached;
    const live = await state.objects.get(namespaces, undefined, name, { consistent: true });
    return live ?? new Error(`namespaces "${name}" not found`);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** A namespace's labels (only string values). */
export function namespaceLabels(namespace: KObject): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(namespace.metadata.labels ?? {})) if (typeof value === 'string') labels[key] = value;
  return labels;
}
