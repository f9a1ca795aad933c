// The `kubernetes.io/enforce-mountable-secrets` policy: a pod whose ServiceAccount carries the
// annotation (true) may use only the Secrets the account lists in `secrets` (volumes, env, envFrom)
// and `imagePullSecrets`. Ephemeral containers, added later through their sub-resource, are held
// to the same list (the CVE-2023-2728 and CVE-2024-3177 fixes).
import type { KObject } from '../../../registry/schema/declaration.ts';
import { fieldsOf, objectsOf, referencedNames, specOf, text, type Fields } from './pod-fields.ts';

/** The annotation that turns the policy on for a ServiceAccount. */
export const enforceMountableSecretsAnnotation = 'kubernetes.io/enforce-mountable-secrets';

/** Go's strconv.ParseBool true spellings (anything else, or a parse error, is false). */
const trueSpellings = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Whether the policy applies to the account. */
export function enforcesMountableSecrets(serviceAccount: KObject): boolean {
  const value = serviceAccount.metadata.annotations?.[enforceMountableSecretsAnnotation];
  return value !== undefined && trueSpellings.has(value);
}

/** The first env or envFrom of `containers` naming a Secret outside `mountable`, worded with `what` ("container", "init container"). */
function containerProblem(containers: readonly Fields[], what: string, mountable: ReadonlySet<string>, account: string): string | undefined {
  for (const container of containers) {
    const name = text(container.name);
    for (const env of objectsOf(container.env)) {
      const ref = fieldsOf(fieldsOf(env.valueFrom)?.secretKeyRef);
      if (ref !== undefined && !mountable.has(text(ref.name))) {
        return `${what} ${name} with envVar ${text(env.name)} referencing secret.secretName="${text(ref.name)}" is not allowed because service account ${account} does not reference that secret`;
      }
    }
    for (const from of objectsOf(container.envFrom)) {
      const ref = fieldsOf(from.secretRef);
      if (ref !== undefined && !mountable.has(text(ref.name))) {
        return `${what} ${name} with envFrom referencing secret.secretName="${text(ref.name)}" is not allowed because service account ${account} does not reference that secret`;
      }
    }
  }
  return undefined;
}

/** Why the pod may not be created under the policy, or undefined when it may. */
export function secretReferenceProblem(serviceAccount: KObject, pod: KObject): string | undefined {
  const account = serviceAccount.metadata.name ?? '';
  const mountable = referencedNames(serviceAccount.secrets);
  const spec = specOf(pod);
  for (const volume of objectsOf(spec.volumes)) {
    const source = fieldsOf(volume.secret);
    if (source !== undefined && !mountable.has(text(source.secretName))) {
      return `volume with secret.secretName="${text(source.secretName)}" is not allowed because service account ${account} does not reference that secret`;
    }
  }
  const inContainers =
    containerProblem(objectsOf(spec.initContainers), 'init container', mountable, account) ??
    containerProblem(objectsOf(spec.containers), 'container', mountable, account);
  if (inContainers !== undefined) return inContainers;
  const pullSecrets = referencedNames(serviceAccount.imagePullSecrets);
  const pulls = objectsOf(spec.imagePullSecrets);
  for (const [i, ref] of pulls.entries()) {
    if (!pullSecrets.has(text(ref.name))) {
      return `imagePullSecrets[${i}].name="${text(ref.name)}" is not allowed because service account ${account} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** Why the pod's ephemeral containers may not be added under the policy, or undefined when they may. */
export function ephemeralSecretReferenceProblem(serviceAccount: KObject, pod: KObject): string | undefined {
  const mountable = referencedNames(serviceAccount.secrets);
  return containerProblem(objectsOf(specOf(pod).ephemeralContainers), 'ephemeral container', mountable, serviceAccount.metadata.name ?? '');
}
