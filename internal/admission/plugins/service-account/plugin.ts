// ServiceAccount (plugin/pkg/admission/serviceaccount): a new pod runs as a ServiceAccount that
// exists (`default` when it names none), gets the account's credentials mounted unless automount
// is off, inherits the account's imagePullSecrets, and under the enforce-mountable-secrets policy
// uses only the Secrets the account lists. Mirror pods are left as they are, but may reference no
// account and no Secret.
import { generateName } from '../../../registry/generic/object-lifecycle.ts';
import type { StatusError } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { enforcesMountableSecrets, ephemeralSecretReferenceProblem, secretReferenceProblem } from './mountable-secrets.ts';
import { fieldsOf, isMirrorPod, objectsOf, specOf, text, type Fields } from './pod-fields.ts';
import { podReferencesSecrets } from './pod-secret-names.ts';
import { defaultLookupPacing, defaultServiceAccountName, findServiceAccount, type LookupPacing } from './service-account-lookup.ts';
import { mountServiceAccountToken } from './token-volume.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const serviceAccountPluginName = 'ServiceAccount';

/** What tests may replace: the lookup's pacing and the volume name generator. */
export interface ServiceAccountPluginTuning {
  readonly pacing: LookupPacing;
  readonly generateName: (prefix: string) => string;
}

/** Pods and their ephemeralcontainers sub-resource, with a body. */
function shouldIgnore(attributes: AdmissionAttributes): boolean {
  const { group, resource } = attributes.resource;
  if (group !== '' || resource !== 'pods') return true;
  if (attributes.subresource !== '' && attributes.subresource !== 'ephemeralcontainers') return true;
  return attributes.object === undefined;
}

/** The account the pod names (v1's deprecated `serviceAccount` stands in when the name is empty, as conversion does). */
function accountName(pod: KObject): string {
  const spec = specOf(pod);
  return text(spec.serviceAccountName) || text(spec.serviceAccount);
}

/** The pod's preference wins, then the account's; mounting is the default. */
function shouldAutomount(serviceAccount: KObject, pod: KObject): boolean {
  const podChoice = specOf(pod).automountServiceAccountToken;
  if (typeof podChoice === 'boolean') return podChoice;
  const accountChoice = serviceAccount.automountServiceAccountToken;
  return typeof accountChoice === 'boolean' ? accountChoice : true;
}

function hasServiceAccountTokenProjection(pod: KObject): boolean {
  return objectsOf(specOf(pod).volumes).some((v) => objectsOf(fieldsOf(v.projected)?.sources).some((s) => fieldsOf(s.serviceAccountToken) !== undefined));
}

/** kube's refusal wording for a failed lookup (the error's own message follows). */
function lookupRefusal(attributes: AdmissionAttributes, name: string, err: unknown): StatusError {
  const why = err instanceof Error ? err.message : String(err);
  return admissionForbidden(attributes, `error looking up service account ${attributes.namespace}/${name}: ${why}`);
}

function validateMirrorPod(attributes: AdmissionAttributes, pod: KObject): void {
  if (accountName(pod) !== '') throw admissionForbidden(attributes, 'a mirror pod may not reference service accounts');
  if (podReferencesSecrets(pod)) throw admissionForbidden(attributes, 'a mirror pod may not reference secrets');
  if (hasServiceAccountTokenProjection(pod)) throw admissionForbidden(attributes, 'a mirror pod may not use ServiceAccountToken volume projections');
}

/** Makes the ServiceAccount plugin with the given pacing and name generator (tests); see serviceAccountPlugin. */
export function createServiceAccountPlugin(deps: AdmissionDeps, tuning: ServiceAccountPluginTuning): AdmissionPlugin {
  const lookUp = async (attributes: AdmissionAttributes, name: string): Promise<KObject> => {
    try {
      return await findServiceAccount(deps.objects, tuning.pacing, attributes.namespace, name);
    } catch (err) {
      throw lookupRefusal(attributes, name, err);
    }
  };

  const validate = async (attributes: AdmissionAttributes): Promise<void> => {
    if (shouldIgnore(attributes) || attributes.object === undefined) return;
    const pod = attributes.object;
    if (attributes.operation === 'UPDATE' && attributes.subresource === 'ephemeralcontainers') {
      const name = accountName(pod);
      if (name === '') throw admissionForbidden(attributes, `no service account specified for pod ${attributes.namespace}/${pod.metadata.name ?? ''}`);
      const account = await lookUp(attributes, name);
      const problem = enforcesMountableSecrets(account) ? ephemeralSecretReferenceProblem(account, pod) : undefined;
      if (problem !== undefined) throw admissionForbidden(attributes, problem);
      return;
    }
    if (attributes.operation !== 'CREATE') return;
    if (isMirrorPod(pod)) return validateMirrorPod(attributes, pod);
    const name = accountName(pod);
    if (name === '') throw admissionForbidden(attributes, `no service account specified for pod ${attributes.namespace}/${pod.metadata.name ?? ''}`);
    const account = await lookUp(attributes, name);
    const problem = enforcesMountableSecrets(account) ? secretReferenceProblem(account, pod) : undefined;
    if (problem !== undefined) throw admissionForbidden(attributes, problem);
  };

  return {
    name: serviceAccountPluginName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async admit(attributes) {
      if (shouldIgnore(attributes) || attributes.operation !== 'CREATE' || attributes.object === undefined) return;
      const pod = attributes.object;
      // The kubelet deletes a mirror pod whose spec differs from its manifest: never change one.
      if (isMirrorPod(pod)) return validate(attributes);
      const spec: Fields = fieldsOf(pod.spec) ?? {};
      pod.spec = spec;
      const name = accountName(pod) || defaultServiceAccountName;
      spec.serviceAccountName = name;
      spec.serviceAccount = name;
      const account = await lookUp(attributes, name);
      if (shouldAutomount(account, pod)) mountServiceAccountToken(pod, tuning.generateName);
      const inherited = objectsOf(account.imagePullSecrets).map((ref) => ({ name: text(ref.name) }));
      if (objectsOf(spec.imagePullSecrets).length === 0 && inherited.length > 0) spec.imagePullSecrets = inherited;
      // kube validates in the mutating phase too, so a refused pod fails before webhooks see it.
      return validate(attributes);
    },
    validate,
  };
}

/** Makes the ServiceAccount plugin (it takes no configuration). */
export const serviceAccountPlugin: PluginFactory = (deps) => createServiceAccountPlugin(deps, { pacing: defaultLookupPacing, generateName });
