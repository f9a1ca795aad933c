// What the certificate controllers read of a CertificateSigningRequest (certificates.k8s.io/v1) and
// the condition helpers of kube's pkg/controller/certificates/certificate_controller_utils.go.
import { bytesAt, requestPemOf } from '../../registry/certificates/csr-fields.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { ControllerDeps } from '../controller.ts';

/** The resource's plural. */
export const csrPlural = 'certificatesigningrequests';

/** Who writes: the field manager of kube-controller-manager's writes. */
export const csrFieldManager = 'kube-controller-manager';

/** One entry of status.conditions. */
export interface CsrCondition {
  readonly type: string;
  readonly status?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastUpdateTime?: string;
  readonly lastTransitionTime?: string;
}

/** The fields of spec the controllers read. */
export interface CsrSpec {
  /** spec.request decoded: the PEM text of the PKCS#10 request. */
  readonly requestPem: string;
  readonly signerName: string;
  readonly usages: readonly string[];
  readonly expirationSeconds?: number;
  readonly username: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/** The CertificateSigningRequest store the server serves (certificates.<domain>/v1), or undefined when it serves none. */
export function csrStoreOf(deps: ControllerDeps): GenericStore | undefined {
  const group = `certificates.${deps.registry.apiDomain}`;
  for (const [served, store] of deps.stores) {
    if (served.group === group && served.version === 'v1' && served.decl.plural === csrPlural) return store;
  }
  return undefined;
}

type Json = Record<string, unknown>;

const asStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The spec of `csr` (missing fields empty). */
export function csrSpec(csr: KObject): CsrSpec {
  const spec = (csr.spec ?? {}) as Json;
  const extra: Record<string, string[]> = {};
  for (const [key, value] of Object.entries((spec.extra ?? {}) as Json)) extra[key] = asStrings(value);
  return {
    requestPem: requestPemOf(csr),
    signerName: typeof spec.signerName === 'string' ? spec.signerName : '',
    usages: asStrings(spec.usages),
    ...(typeof spec.expirationSeconds === 'number' ? { expirationSeconds: spec.expirationSeconds } : {}),
    username: typeof spec.username === 'string' ? spec.username : '',
    uid: typeof spec.uid === 'string' ? spec.uid : '',
    groups: asStrings(spec.groups),
    extra,
  };
}

/** status.conditions. */
export function csrConditions(csr: KObject): CsrCondition[] {
  const conditions = ((csr.status ?? {}) as Json).conditions;
  return Array.isArray(conditions) ? (conditions as CsrCondition[]).filter((c) => typeof c === 'object' && c !== null && typeof c.type === 'string') : [];
}

/** status.certificate decoded (PEM), '' when nothing was issued. */
export function issuedCertificatePem(csr: KObject): string {
  return Buffer.from(bytesAt(csr, 'status.certificate') ?? []).toString('latin1');
}

/** Whether a condition of `type` is there (any status, as kube's GetCertApprovalCondition). */
export function hasCondition(csr: KObject, type: string): boolean {
  return csrConditions(csr).some((c) => c.type === type);
}

/** Whether a condition of `type` is there with status True or none (kube's HasTrueCondition). */
export function hasTrueCondition(csr: KObject, type: string): boolean {
  return csrConditions(csr).some((c) => c.type === type && (c.status === undefined || c.status === '' || c.status === 'True'));
}

/** Approved and not denied (kube's IsCertificateRequestApproved). */
export function isApproved(csr: KObject): boolean {
  return hasCondition(csr, 'Approved') && !hasCondition(csr, 'Denied');
}

/** `csr` with `condition` appended to status.conditions. */
export function withCondition(csr: KObject, condition: CsrCondition): KObject {
  const status = (csr.status ?? {}) as Json;
  return { ...csr, status: { ...status, conditions: [...csrConditions(csr), condition] } };
}
