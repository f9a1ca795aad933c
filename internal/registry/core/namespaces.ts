import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { kubernetesFinalizer, specFinalizers } from './namespace-deletion.ts';
import { ageColumn, nameColumn, text } from '../schema/printers.ts';
import { objectMetaFieldLabels, textLabel } from '../schema/field-labels.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateNamespaceFinalizers } from './finalizer-names.ts';

/**
 * Namespaces (core/v1): cluster-scoped, label-rule names, status.phase Active and spec.finalizers
 * ["kubernetes"] from creation, so that deleting one first empties it (the namespace controller).
 */
export const namespaces: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  namespaced: false,
  nameRule: 'label',
  description: 'Namespace provides a scope for Names.',
  fields: builtinFields('io.k8s.api.core.v1.Namespace'),
  subresources: { status: true, finalize: true },
  // As kube-apiserver's namespace storage: no deletecollection (a namespace goes one delete at a time).
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  printerColumns: [nameColumn, { name: 'Status', type: 'string', description: 'The phase of the namespace.', cell: (o) => text(o, 'status.phase') }, ageColumn],
  // kube-apiserver 1.28: AddFieldLabelConversionsForNamespace (pkg/apis/core/v1/conversion.go) takes
  // only these two; the field set's extra "name" is out of reach.
  fieldSelectors: { 'metadata.name': objectMetaFieldLabels['metadata.name'], 'status.phase': textLabel('status.phase') },
  strategy: {
    prepareForCreate(o: KObject) {
      o.status = { phase: 'Active' };
      // As Kubernetes: the namespace controller must empty a namespace before it can go.
      const finalizers = specFinalizers(o);
      if (!finalizers.includes(kubernetesFinalizer)) finalizers.push(kubernetesFinalizer);
      o.spec = { ...(o.spec as object | undefined), finalizers };
    },
    prepareForUpdate(o: KObject, old: KObject) {
      // spec.finalizers change only through the finalize sub-resource.
      const kept = (old.spec as { finalizers?: unknown } | undefined)?.finalizers;
      const spec = o.spec as Record<string, unknown> | undefined;
      if (kept === undefined) delete spec?.finalizers;
      else o.spec = { ...spec, finalizers: kept };
    },
    // Updates keep the stored spec.finalizers (prepareForUpdate); the finalize sub-resource checks its own.
    validateCreate: validateNamespaceFinalizers,
    removableAfterUpdate(o: KObject) {
      return specFinalizers(o).length === 0;
    },
    applyDefaults(o: KObject) {
      const labels = (o.metadata.labels ??= {});
      // Kubernetes labels every namespace with its own name so selectors can match it.
      labels['kubernetes.io/metadata.name'] = o.metadata.name ?? '';
    },
  },
};
