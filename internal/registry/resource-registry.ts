import { daemonsets } from './apps/daemonsets.ts';
import { deployments } from './apps/deployments.ts';
import { replicasets } from './apps/replicasets.ts';
import { statefulsets } from './apps/statefulsets.ts';
import { leases } from './coordination/leases.ts';
import { configmaps } from './core/configmaps.ts';
import { endpoints } from './core/endpoints.ts';
import { events } from './core/events.ts';
import { limitranges } from './core/limitranges.ts';
import { persistentvolumeclaims } from './core/persistentvolumeclaims.ts';
import { persistentvolumes } from './core/persistentvolumes.ts';
import { resourcequotas } from './core/resourcequotas.ts';
import { namespaces } from './core/namespaces.ts';
import { nodes } from './core/nodes.ts';
import { pods } from './core/pods.ts';
import { secrets } from './core/secrets.ts';
import { serviceaccounts } from './core/serviceaccounts.ts';
import { services } from './core/services.ts';
import { eventsV1 } from './events/events.ts';
import type { ResourceDeclaration } from './schema/declaration.ts';

/** Every built-in resource declaration, in discovery order. */
export const builtinDeclarations: readonly ResourceDeclaration[] = [
  namespaces, configmaps, secrets, serviceaccounts, services, endpoints, pods, nodes, events,
  limitranges, resourcequotas, persistentvolumes, persistentvolumeclaims,
  deployments, replicasets, statefulsets, daemonsets,
  eventsV1, leases,
];

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

/** The resources served by one API server, looked up by group, version and plural. */
export class ResourceRegistry {
  readonly resources: readonly ServedResource[];
  private readonly byPath = new Map<string, ServedResource>();

  constructor(
    readonly apiDomain: string,
    declarations: readonly ResourceDeclaration[] = builtinDeclarations,
  ) {
    this.resources = declarations.map((decl) => {
      const group = servedGroup(decl, apiDomain);
      return { decl, group, version: decl.version, apiVersion: group === '' ? decl.version : `${group}/${decl.version}` };
    });
    for (const r of this.resources) this.byPath.set(`${r.group}/${r.version}/${r.decl.plural}`, r);
  }

  /** The resource at `group/version/plural`, or undefined. */
  find(group: string, version: string, plural: string): ServedResource | undefined {
    return this.byPath.get(`${group}/${version}/${plural}`);
  }

  /** Served group names with their versions, core ('') first. */
  groups(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const r of this.resources) {
      const versions = out.get(r.group) ?? [];
      if (!versions.includes(r.version)) versions.push(r.version);
      out.set(r.group, versions);
    }
    return out;
  }

  /** The resources of one group version. */
  inGroupVersion(group: string, version: string): ServedResource[] {
    return this.resources.filter((r) => r.group === group && r.version === version);
  }
}
