/**
 * Strategic merge patch for the built-in kinds, driven by a table of list merge keys by field
 * name (Kubernetes' `patchMergeKey` markers for the fields we serve). Lists with a merge key are
 * merged element by element; `$patch: delete|replace`, `$deleteFromPrimitiveList/<field>` and
 * `$retainKeys` are honoured; `$setElementOrder` is accepted and ignored (order is kept).
 * Any other list is replaced whole, as in a merge patch.
 */

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Field name -> merge key of its elements. `ports` depends on the kind (container or service).
const mergeKeys: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  conditions: 'type',
  hostAliases: 'ip',
  ownerReferences: 'uid',
  secrets: 'name',
};

// Lists of scalars merged as sets.
const primitiveMergeLists = new Set(['finalizers']);

function mergeKeyOf(field: string, elements: readonly unknown[]): string | undefined {
  if (field === 'ports') return elements.some((e) => isObject(e) && 'containerPort' in e) ? 'containerPort' : 'port';
  return mergeKeys[field];
}

function mergeList(target: readonly unknown[], patch: readonly unknown[], key: string): unknown[] {
  const out = target.map((e) => structuredClone(e));
  for (const p of patch) {
    if (!isObject(p)) continue;
    const index = out.findIndex((e) => isObject(e) && e[key] === p[key]);
    if (p.$patch === 'delete') {
      if (index >= 0) out.splice(index, 1);
    } else if (index >= 0) out[index] = applyStrategicMergePatch(out[index], p);
    else out.push(applyStrategicMergePatch(undefined, p));
  }
  return out;
}

function applyDirectives(result: Json, patch: Json): void {
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/') && Array.isArray(v)) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const current = result[field];
      if (Array.isArray(current)) result[field] = current.filter((x) => !v.includes(x));
    }
  }
  const retain = patch.$retainKeys;
  if (Array.isArray(retain)) for (const k of Object.keys(result)) if (!retain.includes(k)) delete result[k];
}

function stripDirectives(patch: Json): Json {
  return Object.fromEntries(Object.entries(patch).filter(([k]) => !k.startsWith('$')));
}

/** Applies a strategic merge patch to `target`, returning a new value (`target` is not mutated). */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') return structuredClone(stripDirectives(patch));
  const result: Json = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    const current = result[k];
    if (v === null) delete result[k];
    else if (isObject(v) && v.$patch === 'delete') delete result[k];
    else if (Array.isArray(v) && Array.isArray(current)) {
      const key = mergeKeyOf(k, [...current, ...v]);
      if (key) result[k] = mergeList(current, v, key);
      else if (primitiveMergeLists.has(k)) result[k] = [...new Set([...current, ...v])];
      else result[k] = structuredClone(v);
    } else if (Array.isArray(v)) result[k] = structuredClone(v.filter((e) => !(isObject(e) && e.$patch === 'delete')).map((e) => (isObject(e) ? stripDirectives(e) : e)));
    else result[k] = applyStrategicMergePatch(current, v);
  }
  applyDirectives(result, patch);
  return result;
}
