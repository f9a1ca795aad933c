// matchPolicy Equivalent over the served registry (kube's EquivalentResourceMapper and object
// convertor): resources are equivalent when they hold the same stored objects (one declaration
// served at several versions, or one stored as another's: core/v1 and events.k8s.io/v1 Events,
// autoscaling/v1 and v2 HorizontalPodAutoscalers); an object converts through the stored form.
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry.ts';
import type { KObject, ResourceDeclaration } from '../registry/schema/declaration.ts';
import type { GroupVersionKind, GroupVersionResource } from './attributes.ts';
import type { EquivalentResources } from './webhook/index.ts';

/** The declaration whose collection holds a resource's objects. */
function storageOf(decl: ResourceDeclaration): ResourceDeclaration {
  return decl.storedAs?.decl ?? decl;
}

function gvrOf(served: ServedResource): GroupVersionResource {
  return { group: served.group, version: served.version, resource: served.decl.plural };
}

export class RegistryEquivalents implements EquivalentResources {
  constructor(private readonly registry: ResourceRegistry) {}

  equivalentResourcesFor(resource: GroupVersionResource, subresource: string): readonly GroupVersionResource[] {
    const served = this.registry.find(resource.group, resource.version, resource.resource);
    if (served === undefined) return [];
    const storage = storageOf(served.decl);
    return this.registry.resources
      .filter((r) => storageOf(r.decl) === storage && (subresource === '' || this.hasSubresource(r, subresource)))
      .map(gvrOf);
  }

  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined {
    const served = this.registry.find(resource.group, resource.version, resource.resource);
    if (served === undefined) return undefined;
    if (subresource === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
    const declared = subresource === '' ? undefined : served.decl.subresources?.more?.[subresource];
    if (declared !== undefined && declared.view === undefined) {
      return { group: declared.kindGroupVersion?.group ?? served.group, version: declared.kindGroupVersion?.version ?? served.version, kind: declared.kind };
    }
    return { group: served.group, version: served.version, kind: served.decl.kind };
  }

  convert(object: KObject, kind: GroupVersionKind): KObject {
    const copy = structuredClone(object);
    const from = this.servedOfObject(copy);
    const to = this.registry.resources.find((r) => r.group === kind.group && r.version === kind.version && r.decl.kind === kind.kind);
    if (from === undefined || to === undefined || from === to) return copy;
    const stored = from.decl.storedAs === undefined ? copy : from.decl.storedAs.toStored(copy);
    const converted = to.decl.storedAs === undefined ? stored : to.decl.storedAs.fromStored(stored);
    converted.apiVersion = to.apiVersion;
    converted.kind = to.decl.kind;
    return converted;
  }

  private servedOfObject(object: KObject): ServedResource | undefined {
    return this.registry.resources.find((r) => r.apiVersion === object.apiVersion && r.decl.kind === object.kind);
  }

  private hasSubresource(served: ServedResource, subresource: string): boolean {
    const subs = served.decl.subresources;
    if (subresource === 'status') return subs?.status === true;
    if (subresource === 'scale') return subs?.scale !== undefined;
    return subs?.more?.[subresource] !== undefined;
  }
}
