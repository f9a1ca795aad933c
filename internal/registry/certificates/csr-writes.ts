// How each write path changes a stored CertificateSigningRequest, as kube-apiserver 1.28's three
// strategies do (pkg/registry/certificates/certificates/strategy.go): a write of the object itself
// changes only metadata (spec and status are kept); /status keeps the spec and the Approved and
// Denied conditions (approval is /approval's concern); /approval changes only the conditions of
// the status. Neither sub-resource resets metadata (kube's CSR strategies do not call
// ResetObjectMetaForStatus): labels and annotations written through them are kept. Both stamp
// conditions that arrive without their times.
import type { KObject, SubresourceView } from '../schema/declaration.ts';
import { cloneObject } from '../generic/codec.ts';
import { nowTimestamp } from '../generic/object-lifecycle.ts';
import { approved, conditionsOf, denied, statusOf, type CsrCondition } from './csr-fields.ts';
import { validateCsrApprovalUpdate, validateCsrStatusUpdate } from './csr-validation.ts';

const isZeroTime = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * populateConditionTimestamps: a condition without lastUpdateTime gets now; one without
 * lastTransitionTime keeps the time of a stored condition of the same type and status, else now.
 */
export function populateConditionTimestamps(obj: KObject, old: KObject, now: Date = new Date()): void {
  const stamp = nowTimestamp(now);
  const before = conditionsOf(old);
  for (const c of conditionsOf(obj)) {
    if (isZeroTime(c.lastUpdateTime)) c.lastUpdateTime = stamp;
    if (isZeroTime(c.lastTransitionTime)) {
      const same = before.find((o) => o.type === c.type && o.status === c.status && !isZeroTime(o.lastTransitionTime));
      c.lastTransitionTime = same?.lastTransitionTime ?? stamp;
    }
  }
}

/**
 * preserveConditionInstances: when `obj` has as many conditions of `type` as `old`, they become the
 * stored ones, in order; when it added or removed some, validation refuses the write instead.
 */
function preserveConditionInstances(obj: KObject, old: KObject, type: string): void {
  const list = conditionsOf(obj);
  const at = list.flatMap((c, i) => (c.type === type ? [i] : []));
  const kept = conditionsOf(old).filter((c) => c.type === type);
  if (at.length !== kept.length) return;
  const conditions = statusOf(obj).conditions as CsrCondition[];
  at.forEach((index, i) => {
    conditions[index] = cloneObject(kept[i] as CsrCondition);
  });
}

/** The stored object with the metadata of `input` (the generic store restores its system fields). */
function withMetadataOf(input: KObject, old: KObject): KObject {
  const next = cloneObject(old);
  next.metadata = cloneObject(input.metadata);
  return next;
}

/** The stored object with the metadata and `status` of `input` put in (absent: none). */
function withStatusOf(input: KObject, old: KObject): KObject {
  const next = withMetadataOf(input, old);
  if (input.status === undefined || input.status === null) delete next.status;
  else next.status = cloneObject(input.status);
  return next;
}

/** The certificatesigningrequests/status view: the signer's write of the certificate and its own conditions. */
export const csrStatusView: SubresourceView = {
  merge(input, old) {
    const next = withStatusOf(input, old);
    preserveConditionInstances(next, old, approved);
    preserveConditionInstances(next, old, denied);
    populateConditionTimestamps(next, old);
    return next;
  },
  validateUpdate: validateCsrStatusUpdate,
};

/** The certificatesigningrequests/approval view: the approver's write of the conditions. */
export const csrApprovalView: SubresourceView = {
  merge(input, old) {
    const next = withMetadataOf(input, old);
    const wanted = conditionsOf(input);
    const given = (input.status as { conditions?: unknown } | undefined)?.conditions;
    const status = statusOf(next);
    if (given === undefined || given === null) delete status.conditions;
    else status.conditions = cloneObject(wanted);
    populateConditionTimestamps(next, old);
    return next;
  },
  validateUpdate: validateCsrApprovalUpdate,
};
