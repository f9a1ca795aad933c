// ValidatingAdmissionPolicies (admissionregistration.<domain>/v1beta1 and v1alpha1), as
// kube-apiserver 1.28 serves them: one set of objects kept under v1beta1 and read through either
// version (the two schemas are field for field the same), the status sub-resource, a generation
// counted on spec changes, the v1beta1 defaults and ValidateValidatingAdmissionPolicy. Off unless
// the ValidatingAdmissionPolicy feature gate and `--runtime-config` both turn a version on.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { policyColumns } from './policy-columns.ts';
import { defaultValidatingAdmissionPolicy } from './policy-defaults.ts';
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyUpdate } from './policy-validation.ts';

const shared = {
  group: 'admissionregistration',
  groupQualified: true,
  kind: 'ValidatingAdmissionPolicy',
  plural: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  categories: ['api-extensions'],
  namespaced: false,
  nameRule: 'subdomain',
  description: 'ValidatingAdmissionPolicy describes the definition of an admission validation policy that accepts or rejects an object without changing it.',
  subresources: { status: true },
  tracksGeneration: true,
  printerColumns: policyColumns,
  servedByDefault: false,
  featureGate: 'ValidatingAdmissionPolicy',
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate(o: KObject) {
      delete o.status;
    },
    applyDefaults: defaultValidatingAdmissionPolicy,
    validateCreate: validateValidatingAdmissionPolicy,
    validateUpdate: validateValidatingAdmissionPolicyUpdate,
  },
} as const;

/** ValidatingAdmissionPolicies at v1beta1: the version their objects are kept in. */
export const validatingadmissionpolicies: ResourceDeclaration = {
  ...shared,
  version: 'v1beta1',
  fields: builtinFields('io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy'),
};

/** ValidatingAdmissionPolicies at v1alpha1: the same objects as v1beta1, read and written unchanged. */
export const validatingadmissionpoliciesV1alpha1: ResourceDeclaration = {
  ...shared,
  version: 'v1alpha1',
  fields: builtinFields('io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicy'),
  storedAs: { decl: validatingadmissionpolicies, toStored: (o) => structuredClone(o), fromStored: (o) => structuredClone(o) },
};
