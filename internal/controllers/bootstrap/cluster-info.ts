// ConfigMap `cluster-info`, which a joining machine reads without credentials to learn the API's
// address and CA (and, through the bootstrapsigner's signatures, to trust them). kube-apiserver
// does not make it: `kubeadm init` does (phases/bootstraptoken/clusterinfo), with the Role and
// RoleBinding `kubeadm:bootstrap-signer-clusterinfo` that let `system:anonymous` get it, and
// (phases/bootstraptoken/node) the ClusterRoleBindings that let bootstrap tokens of kubeadm's
// default group file node CSRs and have them approved. orch stands in for kubeadm init: the
// leader creates each of these when missing, in kube-public and orch-public, and never updates
// one that exists (a user's edits stay). It acts with the server's authority, as kubeadm acts
// with the admin's: the bootstrap-signer account may only update cluster-info, not create it.
import { stringify } from 'yaml';
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { clusterInfoRetryMsMax, clusterInfoRetryMsMin } from './limits.ts';

/** The controller's name (orch's own: kube has no such controller). */
export const clusterInfoPublisherName = 'cluster-info-publisher';
/** The ConfigMap's name. */
export const clusterInfoName = 'cluster-info';
/** Its key holding the kubeconfig. */
export const kubeconfigKey = 'kubeconfig';
/** Where it is published: kube-public (where kubeadm join reads it) and orch-public. */
export const clusterInfoNamespaces: readonly string[] = ['kube-public', 'orch-public'];
/** The Role and RoleBinding letting anonymous clients read it. */
export const clusterInfoReaderName = 'kubeadm:bootstrap-signer-clusterinfo';
/** The group kubeadm's tokens carry, which its join bindings name. */
export const defaultNodeTokenGroup = 'system:bootstrappers:kubeadm:default-node-token';

/** What the cluster-info publisher publishes. */
export interface ClusterInfoOptions {
  /** The API server's URL as clients reach it (https://host:port). */
  readonly apiServerUrl: string;
  /** PEM of the cluster CA. */
  readonly caBundle: string;
  /** --enable-bootstrap-token-auth: also kubeadm's join ClusterRoleBindings. */
  readonly bootstrapTokenAuth: boolean;
  /** Default kube-public and orch-public. */
  readonly namespaces?: readonly string[];
}

/** The kubeconfig kubeadm writes into cluster-info: one cluster named "", no users, no contexts. */
export function clusterInfoKubeconfig(apiServerUrl: string, caBundle: string): string {
  return stringify({
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': Buffer.from(caBundle, 'utf8').toString('base64'), server: apiServerUrl }, name: '' }],
    contexts: null,
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: null,
  });
}

/** One object to create, and the store it goes to. */
interface Wanted {
  readonly group: string;
  readonly plural: string;
  readonly object: KObject;
}

/** kubeadm's join bindings (only with bootstrap token authentication). */
const joinBindings: readonly { name: string; role: string; group: string }[] = [
  { name: 'kubeadm:kubelet-bootstrap', role: 'system:node-bootstrapper', group: defaultNodeTokenGroup },
  { name: 'kubeadm:node-autoapprove-bootstrap', role: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', group: defaultNodeTokenGroup },
  { name: 'kubeadm:node-autoapprove-certificate-rotation', role: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', group: 'system:nodes' },
];

/** Every object the publisher keeps present, in creation order (a Role before its binding). */
export function clusterInfoObjects(options: ClusterInfoOptions, apiDomain: string): Wanted[] {
  const rbac = `rbac.authorization.${apiDomain}`;
  const wanted: Wanted[] = [];
  for (const namespace of options.namespaces ?? clusterInfoNamespaces) {
    const metadata = (name: string): KObject['metadata'] => ({ name, namespace });
    wanted.push(
      { group: '', plural: 'configmaps', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(clusterInfoName), data: { [kubeconfigKey]: clusterInfoKubeconfig(options.apiServerUrl, options.caBundle) } } },
      { group: rbac, plural: 'roles', object: { apiVersion: `${rbac}/v1`, kind: 'Role', metadata: metadata(clusterInfoReaderName), rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [clusterInfoName], verbs: ['get'] }] } },
      {
        group: rbac, plural: 'rolebindings',
        object: { apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: metadata(clusterInfoReaderName), roleRef: { apiGroup: rbac, kind: 'Role', name: clusterInfoReaderName }, subjects: [{ apiGroup: rbac, kind: 'User', name: 'system:anonymous' }] },
      },
    );
  }
  if (!options.bootstrapTokenAuth) return wanted;
  for (const b of joinBindings) {
    wanted.push({
      group: rbac, plural: 'clusterrolebindings',
      object: { apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: { name: b.name }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: b.role }, subjects: [{ apiGroup: rbac, kind: 'Group', name: b.group }] },
    });
  }
  return wanted;
}

/** Creates what is missing; resolves to the objects still to create (failures are logged). */
async function createMissing(deps: ControllerDeps, wanted: readonly Wanted[]): Promise<Wanted[]> {
  const left: Wanted[] = [];
  for (const w of wanted) {
    const served = deps.registry.find(w.group, 'v1', w.plural);
    const store = served && deps.stores.get(served);
    if (store === undefined) throw new Error(`assert: no ${w.plural} store`);
    try {
      await store.create(w.object.metadata.namespace, w.object, { fieldManager: 'orch-apiserver' });
    } catch (err) {
      if (hasStatus(err, 409)) continue;
      left.push(w);
      // A namespace not created yet (404) or being deleted (403) is worth a retry, not a log line.
      if (!hasStatus(err, 404) && !hasStatus(err, 403)) deps.log(`${clusterInfoPublisherName}: ${w.plural} ${w.object.metadata.namespace ?? ''}/${w.object.metadata.name ?? ''} not created`, err);
    }
  }
  return left;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** The publisher: once per leadership, creates what is missing (retrying with backoff), then idles until `signal` aborts. */
export function createClusterInfoPublisher(deps: ControllerDeps, options: ClusterInfoOptions): Controller {
  if (options.caBundle.trim() === '' || options.apiServerUrl === '') throw new Error('assert: cluster-info needs the API URL and the CA');
  return {
    name: clusterInfoPublisherName,
    async run(signal) {
      let left = clusterInfoObjects(options, deps.registry.apiDomain);
      for (let waitMs = clusterInfoRetryMsMin; left.length > 0 && !signal.aborted; waitMs = Math.min(waitMs * 2, clusterInfoRetryMsMax)) {
        left = await createMissing(deps, left);
        if (left.length > 0) await sleep(waitMs, signal);
      }
      // Returning while leader would have the manager restart it: wait for the end of leadership.
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  };
}
