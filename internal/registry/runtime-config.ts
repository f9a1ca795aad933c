// `--runtime-config`, as kube-apiserver 1.28 reads it (k8s.io/apiserver's resourceconfig): comma-
// separated `<key>[=<value>]`, a missing value meaning true. Keys name a group version (`batch/v1`,
// `v1`, `/v1` or `api/v1` for the core group), one resource of it (`<group>/<version>/<resource>`), or
// every version of a level (`api/all`, `api/ga`, `api/beta`, `api/alpha`, applied in that order and
// taking only `true` or `false`). A resource key beats a group version key, which beats the levels.

/** The stability level of an API version. */
export type VersionLevel = 'ga' | 'beta' | 'alpha';

/** The parsed flag. */
export interface RuntimeConfig {
  /** Whether the resource is served as the flag says, or undefined when the flag says nothing of it. */
  served(group: string, version: string, resource: string, level: VersionLevel): boolean | undefined;
  /** The group versions the flag names (core as `v1`), to refuse those no server has. */
  readonly groupVersions: readonly string[];
}

const levelKeys: ReadonlyMap<string, VersionLevel | 'all'> = new Map([['api/all', 'all'], ['api/ga', 'ga'], ['api/beta', 'beta'], ['api/alpha', 'alpha']]);

/** Go's strconv.ParseBool spellings. */
const goTrue: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const goFalse: ReadonlySet<string> = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** A flag entry's value as Go's strconv.ParseBool reads it (an omitted value is true). */
function parseBool(key: string, value: string): boolean {
  if (value === '' || goTrue.has(value)) return true;
  if (goFalse.has(value)) return false;
  throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing "${value}": invalid syntax`);
}

/** A level key's value: only `true` and `false`, as kube takes them (an omitted value is true, as SPEC says of every key). */
function levelValue(key: string, value: string): boolean {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`invalid value ${key}=${value}`);
}

/** Parses the flag's value; throws an Error with kube's wording on a malformed entry. */
export function parseRuntimeConfig(flag: string): RuntimeConfig {
  const exact = new Map<string, boolean>();
  const levels = new Map<VersionLevel | 'all', boolean>();
  for (const raw of flag.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const key = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    const level = levelKeys.get(key);
    if (level !== undefined) {
      levels.set(level, levelValue(key, eq < 0 ? '' : entry.slice(eq + 1).trim()));
      continue;
    }
    const enabled = parseBool(key, eq < 0 ? '' : entry.slice(eq + 1).trim());
    // The core group: `v1`, `/v1` (kube reads an empty group before the slash) or `api/v1` (its older spelling).
    const normalized = key === 'api/v1' || key.startsWith('api/v1/') ? key.slice('api/'.length) : key.startsWith('/') ? key.slice(1) : key;
    if (normalized.split('/').length > 3 || normalized.split('/').includes('')) throw new Error(`runtime-config invalid key ${key}`);
    exact.set(normalized, enabled);
  }
  // kube refuses a server that would serve nothing.
  if (levels.get('all') === false && levels.size === 1 && exact.size === 0) throw new Error('invalid key with only api/all=false');
  const groupVersions = [...exact.keys()].map((k) => {
    const parts = k.split('/');
    // `v1/pods` names a core resource; `apps/v1/deployments` a named group's.
    return parts.length === 3 || (parts.length === 2 && parts[0] === 'v1') ? parts.slice(0, parts.length - 1).join('/') : k;
  });
  return {
    groupVersions: [...new Set(groupVersions)],
    served(group, version, resource, level) {
      const gv = group === '' ? version : `${group}/${version}`;
      return exact.get(`${gv}/${resource}`) ?? exact.get(gv) ?? levels.get(level) ?? levels.get('all');
    },
  };
}

/** Parses `--feature-gates` (`Name=true,Other=false`); throws on a malformed entry. */
export function parseFeatureGates(flag: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const raw of flag.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${entry}`);
    const key = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1).trim();
    if (!goTrue.has(value) && !goFalse.has(value)) throw new Error(`invalid value of ${key}=${value}, err: strconv.ParseBool: parsing "${value}": invalid syntax`);
    out.set(key, goTrue.has(value));
  }
  return out;
}
