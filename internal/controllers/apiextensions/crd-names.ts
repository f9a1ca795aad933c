// What the naming controller decides for one CustomResourceDefinition (kube's
// apiextensions-apiserver naming controller): the names it may serve, given the names the other
// definitions of its group already hold, and the NamesAccepted and Established conditions.
import type { KObject } from '../../registry/schema/declaration.ts';
import { crdNames, crdSpec } from '../../registry/apiextensions/crd-versions.ts';
import type { CrdCondition } from '../../registry/apiextensions/crd-conditions.ts';

type Json = Record<string, unknown>;

/** Names as status.acceptedNames holds them. */
export interface AcceptedNames {
  readonly plural: string;
  readonly singular?: string;
  readonly shortNames?: readonly string[];
  readonly kind: string;
  readonly listKind?: string;
  readonly categories?: readonly string[];
}

/** The verdict: the names to record and the two conditions. */
export interface NamingVerdict {
  readonly acceptedNames: AcceptedNames;
  readonly namesAccepted: CrdCondition;
  readonly established: CrdCondition | undefined;
}

/** The names held by a definition (its status.acceptedNames). */
export function acceptedNamesOf(crd: KObject): AcceptedNames | undefined {
  const names = (crd.status as Json | undefined)?.acceptedNames as Json | undefined;
  if (names === undefined || typeof names.plural !== 'string' || names.plural === '') return undefined;
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    plural: names.plural, kind: typeof names.kind === 'string' ? names.kind : '',
    ...(typeof names.singular === 'string' ? { singular: names.singular } : {}),
    ...(typeof names.listKind === 'string' ? { listKind: names.listKind } : {}),
    shortNames: strings(names.shortNames), categories: strings(names.categories),
  };
}

/** The first of the requested names another definition of the group holds, as kube's condition reports it. */
function conflict(requested: ReturnType<typeof crdNames>, others: readonly AcceptedNames[]): { reason: string; message: string } | undefined {
  const plurals = new Set(others.flatMap((o) => [o.plural, o.singular ?? '']));
  const shortNames = new Set(others.flatMap((o) => [...(o.shortNames ?? [])]));
  const kinds = new Set(others.flatMap((o) => [o.kind, o.listKind ?? '']));
  if (plurals.has(requested.plural)) return { reason: 'PluralConflict', message: `"${requested.plural}" is already in use` };
  if (plurals.has(requested.singular)) return { reason: 'SingularConflict', message: `"${requested.singular}" is already in use` };
  for (const s of requested.shortNames) if (shortNames.has(s) || plurals.has(s)) return { reason: 'ShortNamesConflict', message: `"${s}" is already in use` };
  if (kinds.has(requested.kind)) return { reason: 'KindConflict', message: `"${requested.kind}" is already in use` };
  if (kinds.has(requested.listKind)) return { reason: 'ListKindConflict', message: `"${requested.listKind}" is already in use` };
  return undefined;
}

/** Decides the names and conditions of `crd`, given the accepted names of the other definitions of its group. */
export function decideNames(crd: KObject, others: readonly AcceptedNames[]): NamingVerdict {
  const requested = crdNames(crd);
  const found = conflict(requested, others);
  const held = acceptedNamesOf(crd);
  const alreadyEstablished = ((crd.status as Json | undefined)?.conditions as Json[] | undefined)?.some((c) => c.type === 'Established' && c.status === 'True') === true;
  if (found !== undefined) {
    return {
      acceptedNames: held ?? { plural: '', kind: '' },
      namesAccepted: { type: 'NamesAccepted', status: 'False', ...found },
      established: alreadyEstablished ? undefined : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' },
    };
  }
  const acceptedNames: AcceptedNames = {
    plural: requested.plural, singular: requested.singular,
    ...(requested.shortNames.length > 0 ? { shortNames: requested.shortNames } : {}),
    kind: requested.kind, listKind: requested.listKind,
    ...(requested.categories.length > 0 ? { categories: requested.categories } : {}),
  };
  return {
    acceptedNames,
    namesAccepted: { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
    established: alreadyEstablished ? undefined : { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
  };
}

/** The group of a definition. */
export function crdGroup(crd: KObject): string {
  const group = crdSpec(crd).group;
  return typeof group === 'string' ? group : '';
}
