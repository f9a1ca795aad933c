import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { dns1123Label } from '../schema/name-validation.ts';
import { invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { ageColumn, field, nameColumn, text } from '../schema/printers.ts';
import { boolLabel, objectMetaFieldLabels, textLabel } from '../schema/field-labels.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateContainerDetails, volumeNames } from './container-validation.ts';
import { validatePodIps } from './pod-ip-validation.ts';
import { validatePodSpecDetails } from './pod-spec-validation.ts';
import { validateEphemeralContainers, validateNoEphemeralContainers } from './pod/ephemeral-containers.ts';
import { podSubresources } from './pod/pod-subresources.ts';
import { jsonEqual } from '../../patch/json-value.ts';
import { defaultPodOnly, defaultPodSpecParts } from './pod-defaults.ts';

interface Container {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  ports?: { protocol?: string }[];
}

interface ContainerStatus {
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; terminated?: { reason?: string } };
}

function containers(o: KObject, path = 'spec.containers'): Container[] {
  const c = field(o, path);
  return Array.isArray(c) ? (c as Container[]) : [];
}

function statuses(o: KObject): ContainerStatus[] {
  const s = field(o, 'status.containerStatuses');
  return Array.isArray(s) ? (s as ContainerStatus[]) : [];
}

function podStatusCell(o: KObject): string {
  if (o.metadata.deletionTimestamp) return 'Terminating';
  let reason = text(o, 'status.reason') || text(o, 'status.phase', 'Unknown');
  for (const s of statuses(o)) {
    const r = s.state?.waiting?.reason ?? s.state?.terminated?.reason;
    if (r) reason = r;
  }
  return reason;
}

/**
 * Validates the containers at `path` of `o` (names unique DNS labels, images set, and each one's
 * ports, env, resources, policies and mounts); `requireOne`: the list may not be empty.
 */
export function validateContainers(o: KObject, path: string, requireOne: boolean): FieldError[] {
  const list = containers(o, path);
  const errors: FieldError[] = [];
  const volumes = volumeNames(field(o, path.slice(0, path.lastIndexOf('.'))));
  if (requireOne && list.length === 0) errors.push(required(path));
  const seen = new Set<string>();
  list.forEach((c, i) => {
    if (!c.name) errors.push(required(`${path}[${i}].name`));
    else {
      for (const p of dns1123Label(c.name)) errors.push(invalidValue(`${path}[${i}].name`, c.name, p));
      if (seen.has(c.name)) errors.push({ type: 'FieldValueDuplicate', field: `${path}[${i}].name`, message: `Duplicate value: "${c.name}"` });
      seen.add(c.name);
    }
    if (!c.image) errors.push(required(`${path}[${i}].image`));
    errors.push(...validateContainerDetails(c as Record<string, unknown>, `${path}[${i}]`, volumes));
  });
  return errors;
}

const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const podRestartPolicies = ['Always', 'OnFailure', 'Never'];

/** The pod's restart and DNS policies, as ValidatePodSpec checks them (after defaulting). */
function validatePodPolicies(o: KObject): FieldError[] {
  const errors: FieldError[] = [];
  const restartPolicy = field(o, 'spec.restartPolicy');
  if (!podRestartPolicies.includes(String(restartPolicy))) errors.push(notSupported('spec.restartPolicy', restartPolicy, podRestartPolicies));
  const dnsPolicy = field(o, 'spec.dnsPolicy');
  if (!dnsPolicies.includes(String(dnsPolicy))) errors.push(notSupported('spec.dnsPolicy', dnsPolicy, dnsPolicies));
  return errors;
}

/** Fills the defaults Kubernetes gives a pod spec (restart policy, DNS policy, pull policy...). */
export function defaultPodSpec(spec: Record<string, unknown>): void {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list as Container[]) {
      if (typeof c !== 'object' || c === null) continue;
      const tagged = typeof c.image === 'string' && /:[^/]+$/.test(c.image) && !c.image.endsWith(':latest');
      c.imagePullPolicy ??= tagged || c.image?.includes('@') ? 'IfNotPresent' : 'Always';
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      if (Array.isArray(c.ports)) for (const port of c.ports) if (typeof port === 'object' && port !== null) port.protocol ??= 'TCP';
    }
  }
  defaultPodSpecParts(spec);
}

/** Pods (core/v1): containers to run; status written by the node agent through `pods/status`. */
export const pods: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Pod is a collection of containers that can run on a host.',
  fields: builtinFields('io.k8s.api.core.v1.Pod'),
  subresources: { status: true, more: podSubresources },
  // kube-apiserver 1.28: the Pod conversion of pkg/apis/core/v1/conversion.go and ToSelectableFields
  // of pkg/registry/core/pod/strategy.go (on the internal pod: v1's serviceAccount and podIP fill in).
  fieldSelectors: {
    ...objectMetaFieldLabels,
    'spec.nodeName': textLabel('spec.nodeName'),
    'spec.host': textLabel('spec.nodeName'), // what old v1 clients send; converted to spec.nodeName
    'spec.restartPolicy': textLabel('spec.restartPolicy'),
    'spec.schedulerName': textLabel('spec.schedulerName'),
    'spec.serviceAccountName': (o) => text(o, 'spec.serviceAccountName') || text(o, 'spec.serviceAccount'),
    'spec.hostNetwork': boolLabel('spec.hostNetwork'),
    'status.phase': textLabel('status.phase'),
    'status.podIP': (o) => text(o, 'status.podIPs.0.ip') || text(o, 'status.podIP'),
    'status.podIPs': () => '', // taken by the conversion, absent from the field set
    'status.nominatedNodeName': textLabel('status.nominatedNodeName'),
  },
  printerColumns: [
    nameColumn,
    { name: 'Ready', type: 'string', description: 'Ready containers of all containers.', cell: (o) => `${statuses(o).filter((s) => s.ready).length}/${containers(o).length}` },
    { name: 'Status', type: 'string', cell: podStatusCell },
    { name: 'Restarts', type: 'string', cell: (o) => String(statuses(o).reduce((n, s) => n + (s.restartCount ?? 0), 0)) },
    ageColumn,
    { name: 'IP', type: 'string', priority: 1, cell: (o) => text(o, 'status.podIP', '<none>') },
    { name: 'Node', type: 'string', priority: 1, cell: (o) => text(o, 'spec.nodeName', '<none>') },
  ],
  strategy: {
    prepareForCreate(o) {
      o.status = { phase: 'Pending', qosClass: 'BestEffort' };
    },
    applyDefaults(o) {
      const spec = (o.spec ??= {}) as Record<string, unknown>;
      defaultPodSpec(spec);
      defaultPodOnly(spec);
    },
    validate: (o) => [...validateContainers(o, 'spec.containers', true), ...validateContainers(o, 'spec.initContainers', false), ...validateEphemeralContainers(o), ...validatePodPolicies(o), ...validatePodSpecDetails(o, 'spec'), ...validatePodIps(o)],
    validateCreate: validateNoEphemeralContainers,
    validateUpdate(o, old) {
      const strip = (x: KObject) => ({ ...(x.spec as object), containers: containers(x).map((c) => ({ ...c, image: null })), activeDeadlineSeconds: null, tolerations: null });
      // Order-blind: a Protobuf or Go client's body lists fields in another order than the stored object.
      return jsonEqual(strip(o), strip(old)) ? [] : [{ type: 'FieldValueForbidden', field: 'spec', message: 'Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)' }];
    },
  },
};

