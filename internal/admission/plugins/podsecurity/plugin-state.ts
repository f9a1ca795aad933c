// What every part of the plugin reads: the validated configuration and the replica's services.
import type { ObjectReader } from '../../plugin.ts';
import type { PodSecurityConfiguration } from './configuration.ts';

/** The plugin's fixed inputs, built once by the factory. */
export interface PluginState {
  readonly configuration: PodSecurityConfiguration;
  /** Reads namespaces and lists pods (the informers' view). */
  readonly objects: ObjectReader;
  /** Wall-clock milliseconds, to bound the check of existing pods. */
  readonly clock: () => number;
  readonly log: (message: string, err?: unknown) => void;
}

/** Whether requests in this namespace are exempt ('' never is). */
export function exemptNamespace(state: PluginState, namespace: string): boolean {
  return namespace !== '' && state.configuration.exemptions.namespaces.includes(namespace);
}

/** Whether requests by this user are exempt ('' never is). */
export function exemptUser(state: PluginState, username: string): boolean {
  return username !== '' && state.configuration.exemptions.usernames.includes(username);
}

/** Whether pods of this runtime class are exempt (unset or '' never is). */
export function exemptRuntimeClass(state: PluginState, runtimeClassName: unknown): boolean {
  return typeof runtimeClassName === 'string' && runtimeClassName !== '' && state.configuration.exemptions.runtimeClasses.includes(runtimeClassName);
}
