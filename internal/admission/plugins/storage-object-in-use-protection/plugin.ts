// StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection): new
// PersistentVolumes and PersistentVolumeClaims get the protection finalizer, so a volume or claim
// still in use is not removed until the protection controllers release it.
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const storageObjectInUseProtectionPluginName = 'StorageObjectInUseProtection';

/** The finalizers, by the resource that gets each. */
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';
export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';

const finalizerByResource: Readonly<Record<string, string>> = {
  persistentvolumes: pvProtectionFinalizer,
  persistentvolumeclaims: pvcProtectionFinalizer,
};

/** Makes the StorageObjectInUseProtection plugin (it takes no configuration). */
export const storageObjectInUseProtectionPlugin: PluginFactory = () => {
  const plugin: AdmissionPlugin = {
    name: storageObjectInUseProtectionPluginName,
    handles: (operation) => operation === 'CREATE',
    async admit(attributes) {
      const { group, resource } = attributes.resource;
      const finalizer = group === '' ? finalizerByResource[resource] : undefined;
      if (finalizer === undefined || attributes.subresource !== '' || attributes.object === undefined) return;
      const meta = attributes.object.metadata;
      const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
      if (finalizers.includes(finalizer)) return;
      meta.finalizers = [...finalizers, finalizer];
    },
  };
  return plugin;
};
