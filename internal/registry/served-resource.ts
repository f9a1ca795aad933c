// A declaration as one API server serves it, and the lookup of served resources: the types the
// stores and their helpers need, apart from the registry that lists every declaration (which
// imports them all).
import type { ResourceDeclaration } from './schema/declaration.ts';

/** A declaration placed under its served API group name (which depends on the domain). */
export interface ServedResource {
  readonly decl: ResourceDeclaration;
  /** The group as served: '' for core, `apps`, `events.<domain>`. */
  readonly group: string;
  readonly version: string;
  /** `v1` or `<group>/<version>`. */
  readonly apiVersion: string;
}

/** The served group name of a declaration under an API domain. */
export function servedGroup(decl: ResourceDeclaration, apiDomain: string): string {
  return decl.groupQualified ? `${decl.group}.${apiDomain}` : decl.group;
}

/** Finds served resources (ResourceRegistry is one). */
export interface ServedResources {
  readonly apiDomain: string;
  readonly resources: readonly ServedResource[];
  /** The resource at `group/version/plural`, or undefined. */
  find(group: string, version: string, plural: string): ServedResource | undefined;
}
