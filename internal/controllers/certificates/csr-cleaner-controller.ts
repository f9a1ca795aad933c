// kube-controller-manager's csrcleaner (pkg/controller/certificates/cleaner/cleaner.go): on its own
// clock (hourly) it deletes requests that are done with: issued and approved an hour ago, denied
// or failed an hour ago, pending (no condition) for a day, or whose issued certificate expired.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { csrController } from './csr-loop.ts';
import { csrConditions, issuedCertificatePem } from './csr-objects.ts';
import { approvedExpirationMs, csrCleanerIntervalMs, deniedExpirationMs, failedExpirationMs, pendingExpirationMs } from './limits.ts';

/** The controller's name, as kube-controller-manager's --controllers knows it. */
export const csrCleanerName = 'csrcleaner';

/** Tuning (tests shorten the interval and move the clock). */
export interface CsrCleanerOptions {
  readonly intervalMs?: number;
  readonly now?: () => Date;
}

/** Whether the timestamp `at` is set and more than `ageMs` before `now` (kube's isOlderThan). */
function olderThan(at: string | undefined, ageMs: number, now: Date): boolean {
  if (at === undefined || at === '') return false;
  const time = Date.parse(at);
  return !Number.isNaN(time) && now.getTime() - time > ageMs;
}

/** Whether the issued certificate's notAfter has passed; throws when status.certificate is not a PEM certificate. */
function certificateExpired(pem: string, now: Date): boolean {
  let certificate: x509.X509Certificate;
  try {
    certificate = new x509.X509Certificate(pem);
  } catch (err) {
    throw new Error(`unable to parse certificate data: ${(err as Error).message}`);
  }
  return now.getTime() > certificate.notAfter.getTime();
}

/**
 * Why `csr` is to be deleted now, or undefined to keep it. Throws when its certificate cannot be
 * read (kube then keeps it and logs).
 */
export function cleanupReason(csr: KObject, now: Date): string | undefined {
  const conditions = csrConditions(csr);
  const certificate = issuedCertificatePem(csr);
  const issued = certificate !== '';
  const expired = issued && certificateExpired(certificate, now);
  const approved = conditions.filter((c) => c.type === 'Approved');
  if (issued && approved.some((c) => olderThan(c.lastUpdateTime, approvedExpirationMs, now))) return 'approved and issued more than 1h ago';
  if (conditions.some((c) => c.type === 'Denied' && olderThan(c.lastUpdateTime, deniedExpirationMs, now))) return 'denied more than 1h ago';
  if (conditions.some((c) => c.type === 'Failed' && olderThan(c.lastUpdateTime, failedExpirationMs, now))) return 'failed more than 1h ago';
  if (conditions.length === 0 && olderThan(csr.metadata.creationTimestamp, pendingExpirationMs, now)) return 'pending for more than 24h';
  if (expired && approved.length > 0) return 'its certificate has expired';
  return undefined;
}

/** csrcleaner, acting through `deps` (as service account certificate-controller). */
export function createCsrCleanerController(deps: ControllerDeps, options: CsrCleanerOptions = {}): Controller {
  return csrController(deps, {
    name: csrCleanerName,
    resyncMs: options.intervalMs ?? csrCleanerIntervalMs,
    watch: false,
    async handle(store, csr) {
      if (cleanupReason(csr, options.now?.() ?? new Date()) !== undefined) await store.delete(undefined, csr.metadata.name ?? '', {});
    },
  });
}
