// The legacy `bindings` collection (POST /api/v1/namespaces/{ns}/bindings), as kube-apiserver
// 1.28's LegacyBindingREST: a create-only resource whose create binds the pod the Binding
// names, exactly as pods/{name}/binding does.
import { admitAsIs } from '../../generic/write-admission.ts';
import type { KObject, ResourceDeclaration } from '../../schema/declaration.ts';
import { builtinFields } from '../../schema/builtin-schemas.ts';
import { GenericStore, type WriteOptions, type WriteResult } from '../../generic/store.ts';
import type { ServedResource } from '../../served-resource.ts';
import type { Storage } from '../../../storage/storage.ts';
import { pods } from '../pods.ts';
import { bindPod } from './binding.ts';

/** Bindings (core/v1): create-only; each create binds a pod to a node. */
export const bindings: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Binding',
  plural: 'bindings',
  singular: 'binding',
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Binding ties one object to another; for example, a pod is bound to a node by a scheduler.',
  fields: builtinFields('io.k8s.api.core.v1.Binding'),
  verbs: ['create'],
  strategy: {},
};

/** The store of `bindings`: its create binds the pod of the Binding's name; it stores nothing of its own. */
export class BindingStore extends GenericStore {
  private readonly pods: GenericStore;

  constructor(storage: Storage, served: ServedResource) {
    super(storage, served);
    this.pods = new GenericStore(storage, { decl: pods, group: '', version: 'v1', apiVersion: 'v1' });
  }

  /** Binds the pod named by the Binding (201 Status Success); see bindPod for the refusals. */
  override async create(namespace: string | undefined, input: KObject, opts: WriteOptions): Promise<WriteResult> {
    // As kube's legacy binding storage: the Binding is admitted as a create of `bindings`.
    const admitted = opts.admission === undefined ? input : ((await admitAsIs(opts.admission, 'CREATE', input, undefined)) ?? input);
    const reply = await bindPod(this.pods, namespace, admitted.metadata.name ?? '', admitted, opts.dryRun === true);
    return { object: reply.object as KObject, warnings: [], created: true };
  }
}
