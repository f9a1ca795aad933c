// ValidatingAdmissionPolicyBindings (admissionregistration.<domain>/v1beta1 and v1alpha1), as
// kube-apiserver 1.28 serves them: one set of objects kept under v1beta1 and read through either
// version, a generation counted on spec changes, the v1beta1 defaults and
// ValidateValidatingAdmissionPolicyBinding. Off unless the ValidatingAdmissionPolicy feature gate
// and `--runtime-config` both turn a version on.
import type { ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { policyBindingColumns } from './policy-columns.ts';
import { defaultValidatingAdmissionPolicyBinding } from './policy-defaults.ts';
import { validateValidatingAdmissionPolicyBinding } from './policy-binding-validation.ts';

const shared = {
  group: 'admissionregistration',
  groupQualified: true,
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  categories: ['api-extensions'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'ValidatingAdmissionPolicyBinding binds the ValidatingAdmissionPolicy with paramerized resources. ValidatingAdmissionPolicyBinding and parameter CRDs together define how cluster administrators configure policies for clusters.',
  tracksGeneration: true,
  printerColumns: policyBindingColumns,
  servedByDefault: false,
  featureGate: 'ValidatingAdmissionPolicy',
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults: defaultValidatingAdmissionPolicyBinding,
    validate: validateValidatingAdmissionPolicyBinding,
  },
} as const;

/** ValidatingAdmissionPolicyBindings at v1beta1: the version their objects are kept in. */
export const validatingadmissionpolicybindings: ResourceDeclaration = {
  ...shared,
  version: 'v1beta1',
  fields: builtinFields('io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding'),
};

/** ValidatingAdmissionPolicyBindings at v1alpha1: the same objects as v1beta1, read and written unchanged. */
export const validatingadmissionpolicybindingsV1alpha1: ResourceDeclaration = {
  ...shared,
  version: 'v1alpha1',
  fields: builtinFields('io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBinding'),
  storedAs: { decl: validatingadmissionpolicybindings, toStored: (o) => structuredClone(o), fromStored: (o) => structuredClone(o) },
};
