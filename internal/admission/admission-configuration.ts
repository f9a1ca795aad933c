// --admission-control-config-file as kube-apiserver 1.28 reads it (apiserver.config.k8s.io/v1
// AdmissionConfiguration, also v1alpha1 and the older apiserver.k8s.io/v1alpha1): each plugin's
// configuration inline (`configuration`) or in the file `path` names (relative to the
// configuration file), YAML or JSON.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

const apiVersions = ['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1'];

/** A configuration file kube-apiserver would refuse to start with. */
export class AdmissionConfigurationError extends Error {}

function parseDocument(text: string, file: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new AdmissionConfigurationError(`unable to parse ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new AdmissionConfigurationError(`unable to read admission control configuration from "${file}" [${err instanceof Error ? err.message : String(err)}]`);
  }
}

/** Each named plugin's configuration object, from the file. */
export function loadAdmissionConfiguration(file: string): Map<string, unknown> {
  const doc = parseDocument(readText(file), file);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new AdmissionConfigurationError(`${file}: not an AdmissionConfiguration object`);
  const { apiVersion, kind, plugins } = doc as { apiVersion?: unknown; kind?: unknown; plugins?: unknown };
  if (kind !== 'AdmissionConfiguration' || typeof apiVersion !== 'string' || !apiVersions.includes(apiVersion)) {
    throw new AdmissionConfigurationError(`${file}: kind must be AdmissionConfiguration of apiVersion ${apiVersions.join(', ')} (got ${String(apiVersion)}, ${String(kind)})`);
  }
  const out = new Map<string, unknown>();
  if (plugins === undefined || plugins === null) return out;
  if (!Array.isArray(plugins)) throw new AdmissionConfigurationError(`${file}: plugins must be a list`);
  plugins.forEach((entry: unknown, i) => {
    const { name, path, configuration } = (typeof entry === 'object' && entry !== null ? entry : {}) as { name?: unknown; path?: unknown; configuration?: unknown };
    if (typeof name !== 'string' || name === '') throw new AdmissionConfigurationError(`${file}: plugins[${i}].name is required`);
    if (path !== undefined && path !== '' && configuration !== undefined) throw new AdmissionConfigurationError(`${file}: plugins[${i}] (${name}) has both path and configuration`);
    if (typeof path === 'string' && path !== '') {
      const target = isAbsolute(path) ? path : join(dirname(file), path);
      out.set(name, parseDocument(readText(target), target));
    } else if (configuration !== undefined) {
      out.set(name, configuration);
    }
  });
  return out;
}
