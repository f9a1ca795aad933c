// The containers of a pod spec with their field paths, in kube's visiting order (init containers,
// containers, ephemeral containers), as pods.VisitContainersWithPath walks them.

/** One container of a pod spec and where it sits (`spec.containers[0]`). */
export interface PathedContainer {
  readonly container: Record<string, unknown>;
  readonly path: string;
}

const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every container of `spec` (a pod's `spec`, possibly missing) with its path under `spec`. */
export function podContainers(spec: unknown): PathedContainer[] {
  if (!isRecord(spec)) return [];
  const found: PathedContainer[] = [];
  for (const list of containerLists) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, index) => {
      if (isRecord(container)) found.push({ container, path: `spec.${list}[${index}]` });
    });
  }
  return found;
}

/** The `spec` of a pod object, if it is a mapping. */
export function podSpec(pod: unknown): Record<string, unknown> | undefined {
  if (!isRecord(pod)) return undefined;
  const spec = pod['spec'];
  return isRecord(spec) ? spec : undefined;
}
