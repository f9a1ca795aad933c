import type { ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { validatePolicyRules } from './rbac-validation.ts';

/**
 * Roles (rbac.authorization.<domain>/v1): namespaced sets of policy rules. kube-apiserver 1.28:
 * pkg/registry/rbac/role/strategy.go (PUT may create), ValidateRole (path-segment names, rules).
 */
export const roles: ResourceDeclaration = {
  group: 'rbac.authorization',
  groupQualified: true,
  version: 'v1',
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  namespaced: true,
  nameRule: 'path-segment',
  description: 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
  fields: builtinFields('io.k8s.api.rbac.v1.Role'),
  required: builtinRequired('io.k8s.api.rbac.v1.Role'),
  strategy: {
    allowCreateOnUpdate: true,
    validate: (o) => validatePolicyRules(o, true),
  },
};
