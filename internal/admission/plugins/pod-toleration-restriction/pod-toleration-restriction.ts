// PodTolerationRestriction: a new pod gets its namespace's default tolerations (annotation, else
// the cluster `default`) merged into its own, every pod that is not BestEffort tolerates the
// memory-pressure taint, and then the pod's tolerations must all be covered by its namespace's
// whitelist (annotation, else the cluster `whitelist`).
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { parsePodTolerationRestrictionConfig } from './config.ts';
import type { PodTolerationRestrictionConfig } from './config.ts';
import { defaultTolerationsAnnotation, namespaceTolerations, plainError, tolerationsWhitelistAnnotation } from './namespace-tolerations.ts';
import { isBestEffort } from './qos.ts';
import { mergeTolerations, verifyAgainstWhitelist } from './tolerations.ts';
import type { Toleration } from './tolerations.ts';

/** The plugin's name as kube-apiserver registers it. */
export const podTolerationRestrictionName = 'PodTolerationRestriction';

/** The toleration every pod above BestEffort gets. */
export const memoryPressureToleration: Toleration = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ignored(attributes: AdmissionAttributes): boolean {
  const { group, resource } = attributes.resource;
  return group !== '' || resource !== 'pods' || attributes.subresource !== '' || attributes.object === undefined;
}

function podTolerations(spec: Json): Toleration[] {
  const list = spec['tolerations'];
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

function plugin(deps: AdmissionDeps, config: PodTolerationRestrictionConfig): AdmissionPlugin {
  const validate = async (attributes: AdmissionAttributes): Promise<void> => {
    if (ignored(attributes)) return;
    const spec = isRecord(attributes.object!['spec']) ? attributes.object!['spec'] : {};
    const tolerations = podTolerations(spec);
    if (tolerations.length === 0) return;
    const fromNamespace = await namespaceTolerations(deps, attributes.namespace, tolerationsWhitelistAnnotation);
    const scope = fromNamespace === undefined ? 'cluster' : 'namespace';
    const whitelist = fromNamespace ?? config.whitelist;
    if (!verifyAgainstWhitelist(tolerations, whitelist)) {
      throw plainError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`);
    }
  };
  const admit = async (attributes: AdmissionAttributes): Promise<void> => {
    if (ignored(attributes)) return;
    const pod = attributes.object!;
    if (!isRecord(pod['spec'])) pod['spec'] = {};
    const spec = pod['spec'] as Json;
    const extra: Toleration[] = [];
    if (attributes.operation === 'CREATE') extra.push(...((await namespaceTolerations(deps, attributes.namespace, defaultTolerationsAnnotation)) ?? config.defaults));
    if (!isBestEffort(pod)) extra.push(memoryPressureToleration);
    if (extra.length > 0) spec['tolerations'] = mergeTolerations(podTolerations(spec), extra).map((t) => ({ ...t }));
    // kube's Admit ends by running Validate, so the whitelist is checked in the mutating phase too.
    await validate(attributes);
  };
  return { name: podTolerationRestrictionName, handles: (operation) => operation === 'CREATE' || operation === 'UPDATE', admit, validate };
}

/**
 * Makes PodTolerationRestriction. Configuration: `{apiVersion:
 * podtolerationrestriction.admission.<domain>/v1alpha1, kind: Configuration, default: [...],
 * whitelist: [...]}`, or none. Throws on a malformed one.
 */
export const podTolerationRestrictionPlugin: PluginFactory = (deps, configuration) => plugin(deps, parsePodTolerationRestrictionConfig(configuration, deps.apiDomain));
