import type { ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { bindingColumns, defaultBinding, validateBinding, validateRoleRefUnchanged } from './rbac-validation.ts';

/**
 * ClusterRoleBindings (rbac.authorization.<domain>/v1): grant a ClusterRole cluster-wide.
 * kube-apiserver 1.28: pkg/registry/rbac/clusterrolebinding/strategy.go,
 * ValidateClusterRoleBinding (ClusterRole only; service accounts need a namespace; roleRef
 * immutable), printClusterRoleBinding.
 */
export const clusterrolebindings: ResourceDeclaration = {
  group: 'rbac.authorization',
  groupQualified: true,
  version: 'v1',
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  nameRule: 'path-segment',
  description: 'ClusterRoleBinding references a ClusterRole, but not contain it.',
  fields: builtinFields('io.k8s.api.rbac.v1.ClusterRoleBinding'),
  required: builtinRequired('io.k8s.api.rbac.v1.ClusterRoleBinding'),
  printerColumns: bindingColumns('clusterRoleBinding'),
  strategy: {
    allowCreateOnUpdate: true,
    applyDefaults: defaultBinding,
    validate: (o) => validateBinding(o, false),
    validateUpdate: validateRoleRefUnchanged,
  },
};
