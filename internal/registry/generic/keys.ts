import type { ResourceDeclaration } from '../schema/declaration.ts';

function groupSegment(decl: ResourceDeclaration): string {
  return decl.group === '' ? 'core' : decl.group;
}

/** The storage key of one object: `/<group>/<plural>/<ns>/<name>` or `/<group>/<plural>/<name>`. */
export function objectKey(decl: ResourceDeclaration, namespace: string | undefined, name: string): string {
  const base = `/${groupSegment(decl)}/${decl.plural}/`;
  return decl.namespaced ? `${base}${namespace ?? ''}/${name}` : `${base}${name}`;
}

/** The key prefix of a collection: all namespaces when `namespace` is undefined. */
export function collectionPrefix(decl: ResourceDeclaration, namespace: string | undefined): string {
  const base = `/${groupSegment(decl)}/${decl.plural}/`;
  return decl.namespaced && namespace ? `${base}${namespace}/` : base;
}
