// The admission webhook metrics kube-apiserver 1.28 exports (admission/metrics), on a prom-client
// Registry the replica passes in (its ApiMetrics registry, so /metrics shows them).
import { Counter, Histogram, Registry } from 'prom-client';
import type { Operation } from '../attributes.ts';

/** The phase label: kube names the mutating phase `admit`. */
export type WebhookPhase = 'admit' | 'validating';

/** Why a webhook rejected a request, as kube's `error_type` label names it. */
export type RejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

/** One finished webhook call. */
export interface WebhookObservation {
  readonly name: string;
  readonly phase: WebhookPhase;
  readonly operation: Operation;
  readonly seconds: number;
  readonly rejected: boolean;
  /** The HTTP code the call ended with (200 allowed or denied by the answer, the failure's code, 0 for internal errors). */
  readonly code: number;
}

/** Counters and latencies of webhook calls; every method only records. */
export class WebhookMetrics {
  readonly duration: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
  readonly requests: Counter<'name' | 'type' | 'operation' | 'code' | 'rejected'>;
  readonly rejections: Counter<'name' | 'type' | 'operation' | 'error_type' | 'rejection_code'>;
  readonly failOpen: Counter<'name' | 'type'>;

  /** Registers the metrics on `registry` (a private one when absent, for tests). */
  constructor(readonly registry: Registry = new Registry()) {
    const registers = [registry];
    this.duration = new Histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds',
      help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
      registers,
    });
    this.requests = new Counter({
      name: 'apiserver_admission_webhook_request_total',
      help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
      registers,
    });
    this.rejections = new Counter({
      name: 'apiserver_admission_webhook_rejection_count',
      help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
      registers,
    });
    this.failOpen = new Counter({
      name: 'apiserver_admission_webhook_fail_open_count',
      help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).',
      labelNames: ['name', 'type'],
      registers,
    });
  }

  /** Records a finished call (ObserveWebhook). */
  observe(o: WebhookObservation): void {
    const rejected = String(o.rejected);
    this.duration.observe({ name: o.name, type: o.phase, operation: o.operation, rejected }, o.seconds);
    this.requests.inc({ name: o.name, type: o.phase, operation: o.operation, code: String(Math.min(o.code, 600)), rejected });
  }

  /** Records a rejection (ObserveWebhookRejection). */
  observeRejection(name: string, phase: WebhookPhase, operation: Operation, errorType: RejectionErrorType, code: number): void {
    this.rejections.inc({ name, type: phase, operation, error_type: errorType, rejection_code: String(Math.min(code, 600)) });
  }

  /** Records a failure ignored by failurePolicy Ignore (ObserveWebhookFailOpen). */
  observeFailOpen(name: string, phase: WebhookPhase): void {
    this.failOpen.inc({ name, type: phase });
  }
}
