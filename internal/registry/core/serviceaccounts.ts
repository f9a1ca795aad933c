import type { ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { tokenSubresource } from './serviceaccount/token-subresource.ts';

/** ServiceAccounts (core/v1): an identity for processes in pods. */
export const serviceaccounts: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'ServiceAccount binds together a name, a principal and a set of secrets.',
  fields: builtinFields('io.k8s.api.core.v1.ServiceAccount'),
  printerColumns: [nameColumn, { name: 'Secrets', type: 'integer', cell: (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0) }, ageColumn],
  // TokenRequest (`kubectl create token`); its behaviour is serviceAccountSubresourceStores'.
  subresources: { more: { token: tokenSubresource } },
  strategy: {},
};
