// Quota usage of PersistentVolumeClaims (pkg/quota/v1/evaluator/core/persistent_volume_claims.go
// at 1.28): one claim and its storage request (rounded up to whole bytes), also under the claim's
// storage class as `<class>.storageclass.storage.k8s.io/{persistentvolumeclaims,requests.storage}`.
import type { KObject } from '../registry/schema/declaration.ts';
import { integerValue, type QuantityValue } from '../registry/schema/quantity-arithmetic.ts';
import type { QuotaEvaluator } from './evaluator.ts';
import { count, parseResourceList, type ResourceList } from './resource-list.ts';

const storageClassSuffix = '.storageclass.storage.k8s.io/';
const pvcResources = ['persistentvolumeclaims', 'requests.storage'];

type Json = Record<string, unknown>;

/** The claim's class: the beta annotation first, then spec.storageClassName (GetPersistentVolumeClaimClass). */
export function claimClass(pvc: KObject): string {
  const annotated = pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (annotated !== undefined) return annotated;
  const name = (pvc.spec as Json | undefined)?.storageClassName;
  return typeof name === 'string' ? name : '';
}

/** A fractional byte count rounded up, so the sum stays a whole number (kube issue 94313). */
function wholeBytes(value: QuantityValue): QuantityValue {
  if (value.exponent >= 0) return value;
  const whole = { units: integerValue(value), exponent: 0, format: value.format };
  return whole;
}

/** What one claim uses. */
export function claimUsage(pvc: KObject): ResourceList {
  const usage: ResourceList = new Map([['persistentvolumeclaims', count(1)], ['count/persistentvolumeclaims', count(1)]]);
  const storageClass = claimClass(pvc);
  if (storageClass !== '') usage.set(`${storageClass}${storageClassSuffix}persistentvolumeclaims`, count(1));
  const resources = (pvc.spec as Json | undefined)?.resources as Json | undefined;
  const request = parseResourceList(resources?.requests).get('storage');
  if (request !== undefined) {
    const storage = wholeBytes(request);
    usage.set('requests.storage', storage);
    if (storageClass !== '') usage.set(`${storageClass}${storageClassSuffix}requests.storage`, storage);
  }
  return usage;
}

/** The evaluator of core/v1 persistentvolumeclaims; updates count because a claim may grow. */
export const pvcEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: (names) =>
    names.filter((n) => n === 'count/persistentvolumeclaims' || pvcResources.includes(n) || pvcResources.some((r) => n.endsWith(`${storageClassSuffix}${r}`))),
  matchesScope: () => false,
  usage: claimUsage,
  constraints: () => undefined,
};
