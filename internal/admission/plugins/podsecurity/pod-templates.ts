// The workload resources that embed a pod template, and where the template is
// (pod-security-admission's DefaultPodSpecExtractor). Their templates are warned and audited,
// never enforced: the pods they create are checked when created.
import type { GroupVersionResource } from '../../attributes.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { objectOf, podView, type JsonObject, type PodView } from './checks/pod-view.ts';

/** Finds a workload's pod template; undefined when the object has none to check. */
type TemplateFinder = (object: KObject) => JsonObject | undefined;

/** A template field that Go declares as a value: absent reads as an empty template. */
function valueTemplate(parent: unknown): JsonObject {
  return objectOf(objectOf(parent)?.template) ?? {};
}

const templateFinders: Readonly<Record<string, TemplateFinder>> = {
  '/podtemplates': (o) => valueTemplate(o),
  // A ReplicationController's template is a pointer: without one there is nothing to check.
  '/replicationcontrollers': (o) => objectOf(objectOf(o.spec)?.template),
  'apps/replicasets': (o) => valueTemplate(o.spec),
  'apps/deployments': (o) => valueTemplate(o.spec),
  'apps/statefulsets': (o) => valueTemplate(o.spec),
  'apps/daemonsets': (o) => valueTemplate(o.spec),
  'batch/jobs': (o) => valueTemplate(o.spec),
  'batch/cronjobs': (o) => valueTemplate(objectOf(objectOf(o.spec)?.jobTemplate)?.spec),
};

function key(resource: Pick<GroupVersionResource, 'group' | 'resource'>): string {
  return `${resource.group}/${resource.resource}`;
}

/** Whether the resource is a workload with a pod template. */
export function hasPodTemplate(resource: Pick<GroupVersionResource, 'group' | 'resource'>): boolean {
  return key(resource) in templateFinders;
}

/** The workload's pod template as a pod view, or undefined when it has none. */
export function podTemplateOf(resource: Pick<GroupVersionResource, 'group' | 'resource'>, object: KObject): PodView | undefined {
  const template = templateFinders[key(resource)]?.(object);
  return template === undefined ? undefined : podView(template.metadata, template.spec);
}
