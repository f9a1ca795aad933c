// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault): a new
// PersistentVolumeClaim that names no class (neither spec.storageClassName nor the beta
// annotation) gets the default StorageClass, when one is marked.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { newestDefault } from './newest-default.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const defaultStorageClassPluginName = 'DefaultStorageClass';

/** The annotations that mark a default StorageClass (GA, and the beta one kube still honours). */
export const isDefaultStorageClassAnnotation = 'storageclass.kubernetes.io/is-default-class';
export const betaIsDefaultStorageClassAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';
/** The beta annotation a claim may name its class with instead of spec.storageClassName. */
export const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

function isDefaultClass(o: KObject): boolean {
  const annotations = o.metadata.annotations ?? {};
  return annotations[isDefaultStorageClassAnnotation] === 'true' || annotations[betaIsDefaultStorageClassAnnotation] === 'true';
}

/** Whether the claim names a class itself (an explicit '' too: it asks for no class). */
function hasClass(claim: KObject): boolean {
  if (claim.metadata.annotations?.[betaStorageClassAnnotation] !== undefined) return true;
  const name = (claim.spec as { storageClassName?: unknown } | undefined)?.storageClassName;
  return name !== undefined && name !== null;
}

/** Makes the DefaultStorageClass plugin (it takes no configuration). */
export const defaultStorageClassPlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: defaultStorageClassPluginName,
    handles: (operation) => operation === 'CREATE',
    async admit(attributes) {
      const { group, resource } = attributes.resource;
      if (group !== '' || resource !== 'persistentvolumeclaims' || attributes.subresource !== '') return;
      const claim = attributes.object;
      if (claim === undefined || hasClass(claim)) return;
      let classes;
      try {
        classes = await deps.objects.list({ group: `storage.${deps.apiDomain}`, resource: 'storageclasses' }, undefined);
      } catch (err) {
        throw admissionForbidden(attributes, err instanceof Error ? err.message : String(err));
      }
      const chosen = newestDefault(classes, isDefaultClass);
      if (chosen === undefined) return;
      const spec = (typeof claim.spec === 'object' && claim.spec !== null ? claim.spec : (claim.spec = {})) as Record<string, unknown>;
      spec.storageClassName = chosen.metadata.name;
    },
  };
  return plugin;
};
