// IngressClasses (networking.<domain>/v1), as kube-apiserver 1.28 serves them:
// SetDefaults_IngressClass, ValidateIngressClass/Update and printIngressClass.
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import { forbidden, immutable, invalidValue, notSupported, required, tooLong, type FieldError } from '../schema/field-errors.ts';
import { dns1123Label, dns1123Subdomain } from '../schema/name-validation.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields, builtinRequired } from '../schema/builtin-schemas.ts';
import { validateTypedReference } from './ingress-backend.ts';
import { problemsAt } from './network-validation.ts';

const controllerBytesMax = 250;
const scopes = ['Cluster', 'Namespace'];
const httpPathRe = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** IsDomainPrefixedPath: `<DNS subdomain>/<path>`. */
function validateController(controller: string): FieldError[] {
  const at = 'spec.controller';
  const errors: FieldError[] = controller.length > controllerBytesMax ? [tooLong(at, controllerBytesMax)] : [];
  if (controller === '') return [...errors, required(at)];
  const slash = controller.indexOf('/');
  const host = slash < 0 ? controller : controller.slice(0, slash);
  const path = slash < 0 ? '' : controller.slice(slash + 1);
  if (slash < 0 || host === '' || path === '') return [...errors, invalidValue(at, controller, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  errors.push(...problemsAt(at, host, dns1123Subdomain(host)));
  if (!httpPathRe.test(path)) errors.push(invalidValue(at, path, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  return errors;
}

function validateParameters(params: Record<string, unknown> | undefined): FieldError[] {
  if (params === undefined || params === null) return [];
  const at = 'spec.parameters';
  const errors = validateTypedReference(params, at);
  const scope = params.scope;
  if (scope === undefined || scope === null) return [...errors, required(`${at}.scope`)];
  if (!scopes.includes(scope as string)) return [...errors, notSupported(`${at}.scope`, scope, scopes)];
  const namespace = params.namespace;
  if (scope === 'Namespace') {
    if (typeof namespace !== 'string') errors.push(required(`${at}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else errors.push(...problemsAt(`${at}.namespace`, namespace, dns1123Label(namespace)));
  } else if (namespace !== undefined && namespace !== null) {
    errors.push(forbidden(`${at}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return errors;
}

function validateIngressClass(o: KObject): FieldError[] {
  return [...validateController(String(field(o, 'spec.controller') ?? '')), ...validateParameters(field(o, 'spec.parameters') as Record<string, unknown> | undefined)];
}

function parametersCell(o: KObject): string {
  const p = field(o, 'spec.parameters') as { kind?: string; apiGroup?: string; name?: string } | undefined;
  if (p === undefined || p === null) return '<none>';
  return `${p.kind ?? ''}${p.apiGroup === undefined ? '' : `.${p.apiGroup}`}/${p.name ?? ''}`;
}

/** IngressClasses (networking.<domain>/v1): which controller implements an Ingress. */
export const ingressclasses: ResourceDeclaration = {
  group: 'networking',
  groupQualified: true,
  version: 'v1',
  kind: 'IngressClass',
  plural: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  nameRule: 'subdomain',
  description: 'IngressClass represents the class of the Ingress, referenced by the Ingress Spec.',
  fields: builtinFields('io.k8s.api.networking.v1.IngressClass'),
  required: builtinRequired('io.k8s.api.networking.v1.IngressClass'),
  tracksGeneration: true,
  printerColumns: [
    nameColumn,
    { name: 'Controller', type: 'string', description: 'Controller that is responsible for handling this class', cell: (o) => String(field(o, 'spec.controller') ?? '') },
    { name: 'Parameters', type: 'string', description: 'A reference to a resource with additional parameters', cell: parametersCell },
    ageColumn,
  ],
  strategy: {
    allowCreateOnUpdate: false,
    applyDefaults(o) {
      const params = field(o, 'spec.parameters') as Record<string, unknown> | undefined;
      if (typeof params === 'object' && params !== null) params.scope ??= 'Cluster';
    },
    validate: validateIngressClass,
    validateUpdate(o, old) {
      const controller = field(o, 'spec.controller') ?? '';
      return controller === (field(old, 'spec.controller') ?? '') ? [] : [immutable('spec.controller', controller)];
    },
  },
};
