// ComponentStatuses (core/v1, deprecated since 1.19): read-only, answered by the server itself as
// kube-apiserver's pkg/registry/core/componentstatus/rest.go does (get and list only; each
// component probed when asked). orch's one component behind the API is its replicated store,
// reported as upstream reports etcd: `etcd-0`, Healthy, "ok".
import type { Storage } from '../../storage/storage.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { notFound } from '../errors/status-error.ts';
import { selectorPredicate } from '../generic/list.ts';
import { componentProbeTimeoutMs } from '../generic/limits.ts';
import { GenericStore, type ListObject, type ListQuery } from '../generic/store.ts';
import type { ServedResource } from '../served-resource.ts';
import { nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';

interface Condition {
  type?: string;
  status?: string;
  message?: string;
  error?: string;
}

function healthyCondition(o: KObject): Condition | undefined {
  return Array.isArray(o.conditions) ? (o.conditions as Condition[]).find((c) => c.type === 'Healthy') : undefined;
}

/** ComponentStatuses (core/v1): the health of the control plane's components, probed on each read. */
export const componentstatuses: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  plural: 'componentstatuses',
  singular: 'componentstatus',
  shortNames: ['cs'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'ComponentStatus (and ComponentStatusList) holds the cluster validation info. Deprecated: This API is deprecated in v1.19+',
  fields: builtinFields('io.k8s.api.core.v1.ComponentStatus'),
  required: builtinRequired('io.k8s.api.core.v1.ComponentStatus'),
  verbs: ['get', 'list'],
  deprecatedSince: '1.19',
  printerColumns: [
    nameColumn,
    { name: 'Status', type: 'string', description: 'Status of the component conditions', cell: (o) => { const c = healthyCondition(o); return c === undefined ? 'Unknown' : c.status === 'True' ? 'Healthy' : 'Unhealthy'; } },
    { name: 'Message', type: 'string', description: 'Message of the component conditions', cell: (o) => healthyCondition(o)?.message ?? '' },
    { name: 'Error', type: 'string', description: 'Error of the component conditions', cell: (o) => healthyCondition(o)?.error ?? '' },
  ],
  strategy: {},
};

/** A probe of one component: resolves when healthy, rejects with the reason when not. */
type Probe = (storage: Storage) => Promise<unknown>;

/** The components a replica reports, by name, in the order listed. */
const components: ReadonlyMap<string, Probe> = new Map([['etcd-0', (storage: Storage) => storage.currentRevision()]]);

async function probe(name: string, check: Probe, storage: Storage): Promise<KObject> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${componentProbeTimeoutMs}ms`)), componentProbeTimeoutMs);
  });
  let condition: Condition;
  try {
    await Promise.race([check(storage), timeout]);
    condition = { type: 'Healthy', status: 'True', message: 'ok' };
  } catch (err) {
    condition = { type: 'Healthy', status: 'False', error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [condition] };
}

/**
 * The store of componentstatuses: nothing is stored; get and list probe the components. The
 * other verbs are not served (the declaration's `verbs`), so only reads reach it.
 */
export class ComponentStatusStore extends GenericStore {
  constructor(storage: Storage, served: ServedResource) {
    super(storage, served);
  }

  override async get(_namespace: string | undefined, name: string): Promise<KObject> {
    const check = components.get(name);
    if (check === undefined) throw notFound(this.gr, name);
    return this.withType(await probe(name, check, this.storage));
  }

  override async list(_namespace: string | undefined, query: ListQuery): Promise<ListObject> {
    const matches = selectorPredicate(this.decl, query);
    const items = await Promise.all([...components].map(([name, check]) => probe(name, check, this.storage)));
    return { apiVersion: this.served.apiVersion, kind: 'ComponentStatusList', metadata: { resourceVersion: '' }, items: items.filter(matches).map((o) => this.withType(o)) };
  }
}
