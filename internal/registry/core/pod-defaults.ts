// The defaults kube-apiserver 1.28 gives the parts of a pod spec (pkg/apis/core/v1/defaults.go),
// beyond the spec's own policies: probes, HTTP actions, field selectors, volume sources and
// requests copied from limits. Go's defaulters walk every place a type appears, so these do too
// (containers of all three lists, their probes and lifecycle handlers, env and volume items).

type Json = Record<string, unknown>;

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
}

function objectAt(parent: Json, key: string): Json | undefined {
  const v = parent[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

/** A Go zero (absent, null, 0, ''): what the defaulters overwrite. */
function unset(value: unknown): boolean {
  return value === undefined || value === null || value === 0 || value === '';
}

function setIfUnset(o: Json, key: string, value: unknown): void {
  if (unset(o[key])) o[key] = value;
}

/** SetDefaults_HTTPGetAction. */
function defaultHttpGet(handler: Json | undefined): void {
  const get = handler === undefined ? undefined : objectAt(handler, 'httpGet');
  if (get === undefined) return;
  setIfUnset(get, 'path', '/');
  setIfUnset(get, 'scheme', 'HTTP');
}

/** SetDefaults_Probe (each threshold only when zero), and its handler's. */
function defaultProbe(probe: Json | undefined): void {
  if (probe === undefined) return;
  setIfUnset(probe, 'timeoutSeconds', 1);
  setIfUnset(probe, 'periodSeconds', 10);
  setIfUnset(probe, 'successThreshold', 1);
  setIfUnset(probe, 'failureThreshold', 3);
  defaultHttpGet(probe);
}

/** SetDefaults_ObjectFieldSelector; a resource field selector's divisor is Go's zero Quantity, which its JSON writes as "0". */
function defaultEnvSource(holder: Json): void {
  const fieldRef = objectAt(holder, 'fieldRef');
  if (fieldRef !== undefined) setIfUnset(fieldRef, 'apiVersion', 'v1');
  const resourceFieldRef = objectAt(holder, 'resourceFieldRef');
  if (resourceFieldRef !== undefined) setIfUnset(resourceFieldRef, 'divisor', '0');
}

/** SetDefaults_Pod's rule: a resource with a limit and no request is requested at its limit. */
function defaultRequestsFromLimits(container: Json): void {
  const resources = objectAt(container, 'resources');
  const limits = resources === undefined ? undefined : objectAt(resources, 'limits');
  if (resources === undefined || limits === undefined || Object.keys(limits).length === 0) return;
  const requests = (objectAt(resources, 'requests') ?? {}) as Json;
  for (const [name, quantity] of Object.entries(limits)) if (requests[name] === undefined) requests[name] = quantity;
  resources.requests = requests;
}

function defaultContainer(container: Json): void {
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(objectAt(container, probe));
  const lifecycle = objectAt(container, 'lifecycle');
  if (lifecycle !== undefined) for (const hook of ['postStart', 'preStop']) defaultHttpGet(objectAt(lifecycle, hook));
  for (const env of objects(container.env)) {
    const from = objectAt(env, 'valueFrom');
    if (from !== undefined) defaultEnvSource(from);
  }
}

/** 0644, the default file mode of secret, configMap, downwardAPI and projected volumes. */
const defaultFileMode = 420;

/** The volume sources a volume may name; one with none is an emptyDir (SetDefaults_Volume). */
const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs', 'persistentVolumeClaim',
  'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk',
  'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral',
];

function defaultVolume(volume: Json): void {
  if (!volumeSources.some((s) => volume[s] !== undefined && volume[s] !== null)) volume.emptyDir = {};
  const hostPath = objectAt(volume, 'hostPath');
  if (hostPath !== undefined && hostPath.type === undefined) hostPath.type = ''; // a pointer defaulted to HostPathUnset
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = objectAt(volume, source);
    if (s !== undefined && (s.defaultMode === undefined || s.defaultMode === null)) s.defaultMode = defaultFileMode;
  }
  for (const item of objects(objectAt(volume, 'downwardAPI')?.items)) defaultEnvSource(item);
  for (const projection of objects(objectAt(volume, 'projected')?.sources)) {
    for (const item of objects(objectAt(projection, 'downwardAPI')?.items)) defaultEnvSource(item);
    const token = objectAt(projection, 'serviceAccountToken');
    if (token !== undefined && (token.expirationSeconds === undefined || token.expirationSeconds === null)) token.expirationSeconds = 3600;
  }
  const iscsi = objectAt(volume, 'iscsi');
  if (iscsi !== undefined) setIfUnset(iscsi, 'iscsiInterface', 'default');
  const rbd = objectAt(volume, 'rbd');
  if (rbd !== undefined) {
    setIfUnset(rbd, 'pool', 'rbd');
    setIfUnset(rbd, 'user', 'admin');
    setIfUnset(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = objectAt(volume, 'azureDisk');
  if (azureDisk !== undefined) {
    azureDisk.cachingMode ??= 'ReadWrite';
    azureDisk.fsType ??= 'ext4';
    azureDisk.readOnly ??= false;
    azureDisk.kind ??= 'Shared';
  }
}

/** The defaults of a pod spec's containers and volumes, in a Pod or a pod template alike. */
export function defaultPodSpecParts(spec: Json): void {
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) for (const c of objects(spec[key])) defaultContainer(c);
  for (const v of objects(spec.volumes)) defaultVolume(v);
}

/**
 * SetDefaults_Pod: what only a Pod gets, not a template (1.28 moved the host ports here behind
 * DefaultHostNetworkHostPortsInPodTemplates, off): enableServiceLinks, requests copied from
 * limits, and with the host's network each container port as its host port.
 */
export function defaultPodOnly(spec: Json): void {
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  for (const key of ['containers', 'initContainers']) {
    for (const c of objects(spec[key])) {
      defaultRequestsFromLimits(c);
      if (spec.hostNetwork === true) for (const port of objects(c.ports)) if (unset(port.hostPort)) port.hostPort = port.containerPort;
    }
  }
}
