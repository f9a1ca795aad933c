import type { ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { bindingColumns, defaultBinding, validateBinding, validateRoleRefUnchanged } from './rbac-validation.ts';

/**
 * RoleBindings (rbac.authorization.<domain>/v1): grant a Role or ClusterRole to subjects in one
 * namespace. kube-apiserver 1.28: pkg/registry/rbac/rolebinding/strategy.go, ValidateRoleBinding
 * (roleRef immutable), SetDefaults_RoleBinding/Subject, printRoleBinding.
 */
export const rolebindings: ResourceDeclaration = {
  group: 'rbac.authorization',
  groupQualified: true,
  version: 'v1',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  nameRule: 'path-segment',
  description: 'RoleBinding references a role, but does not contain it.',
  fields: builtinFields('io.k8s.api.rbac.v1.RoleBinding'),
  required: builtinRequired('io.k8s.api.rbac.v1.RoleBinding'),
  printerColumns: bindingColumns('roleBinding'),
  strategy: {
    allowCreateOnUpdate: true,
    applyDefaults: defaultBinding,
    validate: (o) => validateBinding(o, true),
    validateUpdate: validateRoleRefUnchanged,
  },
};
