import type { ResourceDeclaration } from '../schema/declaration.ts';
import { ageColumn, nameColumn } from '../schema/printers.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { defaultEndpoints, validateEndpoints } from './endpoints-validation.ts';

function endpointsCell(subsets: unknown): string {
  if (!Array.isArray(subsets)) return '<none>';
  const list: string[] = [];
  for (const s of subsets as { addresses?: { ip?: string }[]; ports?: { port?: number }[] }[]) {
    for (const a of s.addresses ?? []) for (const p of s.ports ?? [{}]) list.push(p.port === undefined ? `${a.ip}` : `${a.ip}:${p.port}`);
  }
  if (list.length === 0) return '<none>';
  return list.length > 3 ? `${list.slice(0, 3).join(',')} + ${list.length - 3} more...` : list.join(',');
}

/** Endpoints (core/v1): the addresses behind a Service. */
export const endpoints: ResourceDeclaration = {
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  plural: 'endpoints',
  singular: 'endpoints',
  shortNames: ['ep'],
  namespaced: true,
  nameRule: 'subdomain',
  description: 'Endpoints is a collection of endpoints that implement the actual service.',
  fields: builtinFields('io.k8s.api.core.v1.Endpoints'),
  printerColumns: [nameColumn, { name: 'Endpoints', type: 'string', cell: (o) => endpointsCell(o.subsets) }, ageColumn],
  strategy: { allowCreateOnUpdate: true, applyDefaults: defaultEndpoints, validate: validateEndpoints },
};
