// A PodTemplateSpec (metadata and a pod spec) inside another kind: its defaults, kube-apiserver's
// ValidatePodTemplateSpec for what users meet first, and the container cells printers show.
import type { KObject } from '../schema/declaration.ts';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { validateAnnotations, validateLabels } from '../schema/metadata-validation.ts';
import { field } from '../schema/printers.ts';
import { defaultPodSpec, validateContainers } from './pods.ts';
import { validatePodSpecDetails } from './pod-spec-validation.ts';

/** The restart policies a pod spec takes, in upstream's order. */
export const restartPolicies = ['Always', 'OnFailure', 'Never'] as const;

const activeDeadlineSecondsMax = 2147483647;

/** Fills the pod spec defaults of the template at `path` of `o`, when there is a template. */
export function defaultPodTemplate(o: KObject, path: string): void {
  const template = field(o, path);
  if (typeof template !== 'object' || template === null || Array.isArray(template)) return;
  const t = template as Record<string, unknown>;
  defaultPodSpec((t.spec ??= {}) as Record<string, unknown>);
}

/**
 * Validates the template at `path` of `o` as ValidatePodTemplateSpec does for what a user meets
 * first: labels and annotations, containers (at least one, unique DNS-label names, an image),
 * the pod spec's volumes and scheduling fields (validatePodSpecDetails), the restart policy,
 * activeDeadlineSeconds, and no ephemeral containers.
 */
export function validatePodTemplateSpec(o: KObject, path: string): FieldError[] {
  const errors = [...validateLabels(field(o, `${path}.metadata.labels`), `${path}.metadata.labels`), ...validateAnnotations(field(o, `${path}.metadata.annotations`), `${path}.metadata.annotations`)];
  const spec = `${path}.spec`;
  errors.push(...validateContainers(o, `${spec}.containers`, true), ...validateContainers(o, `${spec}.initContainers`, false));
  errors.push(...validatePodSpecDetails(o, spec));
  const restartPolicy = field(o, `${spec}.restartPolicy`);
  if (restartPolicy === undefined || restartPolicy === '') errors.push(required(`${spec}.restartPolicy`));
  else if (!(restartPolicies as readonly unknown[]).includes(restartPolicy)) errors.push(notSupported(`${spec}.restartPolicy`, restartPolicy, restartPolicies));
  const deadline = field(o, `${spec}.activeDeadlineSeconds`);
  if (typeof deadline === 'number' && (deadline < 1 || deadline > activeDeadlineSecondsMax)) {
    errors.push(invalidValue(`${spec}.activeDeadlineSeconds`, deadline, `must be between 1 and ${activeDeadlineSecondsMax}, inclusive`));
  }
  const ephemeral = field(o, `${spec}.ephemeralContainers`);
  if (Array.isArray(ephemeral) && ephemeral.length > 0) errors.push(forbidden(`${spec}.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  return errors;
}

/** The Containers and Images cells of a template's containers: names and images joined by commas. */
export function containerCells(o: KObject, path: string): { names: string; images: string } {
  const list = field(o, `${path}.spec.containers`);
  const containers = Array.isArray(list) ? (list as { name?: unknown; image?: unknown }[]) : [];
  return { names: containers.map((c) => String(c.name ?? '')).join(','), images: containers.map((c) => String(c.image ?? '')).join(',') };
}
