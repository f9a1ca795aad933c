// PersistentVolumeClaimResize: growing a claim needs a bound claim and an expandable class.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { persistentVolumeClaimResizePlugin } from '../../../../internal/admission/plugins/persistent-volume-claim-resize/plugin.ts';
import { attributesOf, depsOf, FakeObjects, gr, make, object, status } from './fixtures.ts';

const claim = (size: string, className = 'fast', phase = 'Bound') =>
  object('PersistentVolumeClaim', 'c', { spec: { storageClassName: className, resources: { requests: { storage: size } } }, status: { phase } }, { namespace: 'ns' });
const update = (next: ReturnType<typeof claim>, old: ReturnType<typeof claim>) =>
  attributesOf({ operation: 'UPDATE', resource: { resource: 'persistentvolumeclaims' }, kind: { kind: 'PersistentVolumeClaim' }, object: next, oldObject: old });

function plugin() {
  const objects = new FakeObjects()
    .put(gr.storageclasses, object('StorageClass', 'fast', { provisioner: 'p', allowVolumeExpansion: true }))
    .put(gr.storageclasses, object('StorageClass', 'fixed', { provisioner: 'p' }));
  return make(persistentVolumeClaimResizePlugin, depsOf(objects));
}

test('a bound claim of an expandable class may grow; shrinking or keeping the size is not this plugin\'s concern', async () => {
  const p = plugin();
  await p.validate!(update(claim('2Gi'), claim('1Gi')));
  await p.validate!(update(claim('1024Mi'), claim('1Gi', 'fixed', 'Pending')));
  await p.validate!(update(claim('1Gi', 'fixed'), claim('2Gi', 'fixed')));
});

test('growing is refused for unbound claims and classes that do not allow expansion', async () => {
  const p = plugin();
  await assert.rejects(p.validate!(update(claim('2Gi', 'fast', 'Pending'), claim('1Gi', 'fast', 'Pending'))), status(403, 'persistentvolumeclaims "c" is forbidden: Only bound persistent volume claims can be expanded'));
  const refusal = 'persistentvolumeclaims "c" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';
  await assert.rejects(p.validate!(update(claim('2Gi', 'fixed'), claim('1Gi', 'fixed'))), status(403, refusal));
  await assert.rejects(p.validate!(update(claim('2Gi', 'missing'), claim('1Gi', 'missing'))), status(403, refusal));
  await assert.rejects(p.validate!(update(claim('2Gi', ''), claim('1Gi', ''))), status(403, refusal));
  assert.equal(p.handles('CREATE'), false);
});
