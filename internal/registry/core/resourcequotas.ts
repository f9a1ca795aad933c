import type { ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, field, nameColumn } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { validateResourceQuotaScopes } from './resource-quota-scopes.ts';

function usage(kind: 'requests' | 'limits') {
  return (o: Parameters<NonNullable<ResourceDeclaration['printerColumns']>[number]['cell']>[0]): string => {
    const hard = (field(o, 'status.hard') ?? {}) as Record<string, unknown>;
    const used = (field(o, 'status.used') ?? {}) as Record<string, unknown>;
    const keys = Object.keys(hard).filter((k) => (kind === 'limits' ? k.startsWith('limits.') : !k.startsWith('limits.'))).sort();
    return keys.map((k) => `${k}: ${String(used[k] ?? 0)}/${String(hard[k])}`).join(', ');
  };
}

/** ResourceQuotas (core/v1): aggregate limits per namespace; usage in `status`. */
export const resourcequotas: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  singular: 'resourcequota',
  shortNames: ['quota'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'ResourceQuota sets aggregate quota restrictions enforced per namespace.',
  fields: builtinFields('io.k8s.api.core.v1.ResourceQuota'),
  subresources: { status: true },
  printerColumns: [nameColumn, ageColumn, { name: 'Request', type: 'string', cell: usage('requests') }, { name: 'Limit', type: 'string', cell: usage('limits') }],
  strategy: {
    prepareForCreate(o) {
      o.status = {};
    },
    validate: validateResourceQuotaScopes,
  },
};
