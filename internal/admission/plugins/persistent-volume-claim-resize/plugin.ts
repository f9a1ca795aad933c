// PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize): a claim may
// grow only when it is bound and its StorageClass (unchanged by the update) sets
// allowVolumeExpansion; shrinking and other updates are left to validation.
import { compareQuantities, quantityValue, zeroQuantity } from '../../../registry/schema/quantity-arithmetic.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const persistentVolumeClaimResizePluginName = 'PersistentVolumeClaimResize';

/** The beta annotation a claim may name its class with; it wins over spec.storageClassName. */
const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

function requestedStorage(claim: KObject): ReturnType<typeof quantityValue> {
  const spec = claim.spec as { resources?: { requests?: Record<string, unknown> } } | undefined;
  const storage = spec?.resources?.requests?.storage;
  // An absent request is the zero quantity, as a missing map entry is in Go.
  return storage === undefined ? zeroQuantity : quantityValue(storage);
}

/** The claim's class name ('' when none): the beta annotation first, as kube reads it. */
function classOf(claim: KObject): string {
  const annotated = claim.metadata.annotations?.[betaStorageClassAnnotation];
  if (annotated !== undefined) return annotated;
  const name = (claim.spec as { storageClassName?: unknown } | undefined)?.storageClassName;
  return typeof name === 'string' ? name : '';
}

/** Whether the claim's StorageClass allows expansion (a missing class does not). */
async function allowResize(deps: AdmissionDeps, claim: KObject, old: KObject): Promise<boolean> {
  const name = classOf(claim);
  if (name === '' || name !== classOf(old)) return false;
  const storageClass = await deps.objects.get({ group: `storage.${deps.apiDomain}`, resource: 'storageclasses' }, undefined, name);
  return storageClass?.allowVolumeExpansion === true;
}

/** Makes the PersistentVolumeClaimResize plugin (it takes no configuration). */
export const persistentVolumeClaimResizePlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: persistentVolumeClaimResizePluginName,
    handles: (operation) => operation === 'UPDATE',
    async validate(attributes) {
      const { group, resource } = attributes.resource;
      if (group !== '' || resource !== 'persistentvolumeclaims' || attributes.subresource !== '') return;
      const claim = attributes.object;
      const old = attributes.oldObject;
      if (claim === undefined || old === undefined) return;
      const newSize = requestedStorage(claim);
      const oldSize = requestedStorage(old);
      // Unparsable sizes are validation's to refuse.
      if (newSize === undefined || oldSize === undefined || compareQuantities(newSize, oldSize) <= 0) return;
      if ((old.status as { phase?: unknown } | undefined)?.phase !== 'Bound') {
        throw admissionForbidden(attributes, 'Only bound persistent volume claims can be expanded');
      }
      if (!(await allowResize(deps, claim, old))) {
        throw admissionForbidden(attributes, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      }
    },
  };
  return plugin;
};
