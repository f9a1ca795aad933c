import type { ResourceDeclaration } from '../schema/declaration.ts';
import { atomicList, bool, mapList, obj, str } from '../schema/field-schema.ts';
import { objectReferenceSchema } from '../schema/object-meta.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';

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
  fields: { secrets: mapList(objectReferenceSchema, ['name']), imagePullSecrets: atomicList(obj({ name: str() })), automountServiceAccountToken: bool() },
  printerColumns: [nameColumn, { name: 'Secrets', type: 'integer', cell: (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0) }, ageColumn],
  strategy: {},
};
