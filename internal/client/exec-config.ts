// The `users[].user.exec` stanza of a kubeconfig: which credential plugin to run and how.
// Validation follows client-go's clientcmd (required fields, interactiveMode rules) so a
// kubeconfig kubectl refuses is refused here too, with the same field named.
import { isAbsolute, resolve, sep } from 'node:path';
import { KubeconfigError } from './errors.ts';

/** The ExecCredential API versions a plugin may speak (v1alpha1 was removed in Kubernetes 1.24). */
export const execApiVersions = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;

/** One supported ExecCredential API version. */
export type ExecApiVersion = (typeof execApiVersions)[number];

/** Whether the plugin may use the terminal: never, when one is there, or it needs one. */
export type ExecInteractiveMode = 'Never' | 'IfAvailable' | 'Always';

/** One extra environment variable for the plugin. */
export interface ExecEnvVar {
  readonly name: string;
  readonly value: string;
}

/** A validated exec stanza; `command` is already resolved against the kubeconfig's directory when relative. */
export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly ExecEnvVar[];
  readonly apiVersion: ExecApiVersion;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: ExecInteractiveMode;
}

type Dict = Record<string, unknown>;

const interactiveModes: readonly string[] = ['Never', 'IfAvailable', 'Always'];

function stringField(dict: Dict, key: string, what: string): string | undefined {
  const value = dict[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new KubeconfigError(`${what}.exec.${key} must be a string`);
  return value;
}

function stringList(dict: Dict, key: string, what: string): string[] {
  const value = dict[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new KubeconfigError(`${what}.exec.${key} must be a list of strings`);
  return value as string[];
}

function envList(dict: Dict, what: string): ExecEnvVar[] {
  const value = dict['env'];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new KubeconfigError(`${what}.exec.env must be a list of {name, value}`);
  return value.map((item: unknown, i): ExecEnvVar => {
    const entry = (item ?? {}) as Dict;
    const name = entry['name'];
    const envValue = entry['value'] ?? '';
    if (typeof name !== 'string' || name === '') throw new KubeconfigError(`${what}.exec.env[${i}].name must be specified to use the exec plugin`);
    if (typeof envValue !== 'string') throw new KubeconfigError(`${what}.exec.env[${i}].value must be a string`);
    return { name, value: envValue };
  });
}

function apiVersionOf(dict: Dict, what: string): ExecApiVersion {
  const apiVersion = stringField(dict, 'apiVersion', what);
  if (apiVersion === undefined) throw new KubeconfigError(`${what}.exec.apiVersion must be specified to use the exec plugin`);
  if (apiVersion === 'client.authentication.k8s.io/v1alpha1') {
    throw new KubeconfigError(`${what}.exec.apiVersion ${apiVersion} is no longer supported (removed in Kubernetes 1.24): use client.authentication.k8s.io/v1 or v1beta1`);
  }
  if (!(execApiVersions as readonly string[]).includes(apiVersion)) {
    throw new KubeconfigError(`${what}.exec.apiVersion ${JSON.stringify(apiVersion)} is invalid: use ${execApiVersions.join(' or ')}`);
  }
  return apiVersion as ExecApiVersion;
}

function interactiveModeOf(dict: Dict, apiVersion: ExecApiVersion, what: string): ExecInteractiveMode {
  const mode = stringField(dict, 'interactiveMode', what);
  if (mode === undefined) {
    // v1 made the field required; v1beta1 kept the old behaviour as its default.
    if (apiVersion === 'client.authentication.k8s.io/v1') throw new KubeconfigError(`${what}.exec.interactiveMode must be specified to use the exec plugin with ${apiVersion}`);
    return 'IfAvailable';
  }
  if (!interactiveModes.includes(mode)) throw new KubeconfigError(`${what}.exec.interactiveMode ${JSON.stringify(mode)} is invalid: use Never, IfAvailable or Always`);
  return mode as ExecInteractiveMode;
}

/**
 * A command with a path separator but not absolute is relative to the kubeconfig's directory (as
 * clientcmd resolves it); a bare name is left for PATH lookup when the plugin runs.
 */
function resolveCommand(command: string, baseDir: string): string {
  if (isAbsolute(command)) return command;
  if (!command.includes(sep) && !command.includes('/')) return command;
  return resolve(baseDir, command);
}

/** Parses and validates the `exec` mapping of user `what`. Throws KubeconfigError naming the field. */
export function parseExecConfig(value: unknown, baseDir: string, what: string): ExecConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new KubeconfigError(`${what}.exec must be a mapping`);
  const dict = value as Dict;
  const command = stringField(dict, 'command', what);
  if (command === undefined) throw new KubeconfigError(`${what}.exec.command must be specified to use the exec plugin`);
  const apiVersion = apiVersionOf(dict, what);
  const provideClusterInfo = dict['provideClusterInfo'] ?? false;
  if (typeof provideClusterInfo !== 'boolean') throw new KubeconfigError(`${what}.exec.provideClusterInfo must be a boolean`);
  const installHint = stringField(dict, 'installHint', what);
  return {
    command: resolveCommand(command, baseDir),
    args: stringList(dict, 'args', what),
    env: envList(dict, what),
    apiVersion,
    ...(installHint === undefined ? {} : { installHint }),
    provideClusterInfo,
    interactiveMode: interactiveModeOf(dict, apiVersion, what),
  };
}
