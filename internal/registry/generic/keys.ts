import type { ResourceDeclaration } from '../schema/declaration.ts';

/** The declaration whose collection holds the objects (itself, unless it is stored as another). */
function storedDecl(decl: ResourceDeclaration): ResourceDeclaration {
  return decl.storedAs?.decl ?? decl;
}

/**
 * A collection's prefix: `/<group>/<plural>/` for a built-in resource (its group's base name,
 * `core` for the core group), `/@<group>/<plural>/` for a custom one, so that no definition can
 * name its way into a built-in collection (a custom group `rbac.authorization` is not RBAC's).
 */
function base(decl: ResourceDeclaration): string {
  const stored = storedDecl(decl);
  if (stored.custom === true) return `/@${stored.group}/${stored.plural}/`;
  return `/${stored.group === '' ? 'core' : stored.group}/${stored.plural}/`;
}

/** The storage key of one object: `/<group>/<plural>/<ns>/<name>` or `/<group>/<plural>/<name>`. */
export function objectKey(decl: ResourceDeclaration, namespace: string | undefined, name: string): string {
  return decl.namespaced ? `${base(decl)}${namespace ?? ''}/${name}` : `${base(decl)}${name}`;
}

/** Whether `key` (an objectKey) is the key of an object named `name`: a key ends with its name after a '/', and names hold no '/'. */
export function keyNamesObject(key: string, name: string): boolean {
  return key.endsWith(`/${name}`);
}

/** The key prefix of a collection: all namespaces when `namespace` is undefined. */
export function collectionPrefix(decl: ResourceDeclaration, namespace: string | undefined): string {
  return decl.namespaced && namespace ? `${base(decl)}${namespace}/` : base(decl);
}
