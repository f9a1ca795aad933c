// The three ways a webhook call ends other than "allowed", worded as kube-apiserver 1.28 words them
// (util/webhook's ErrCallingWebhook and ErrWebhookRejection, webhook/errors' ToStatusErr and
// NewDryRunUnsupportedErr), and the refusal a failing-closed call becomes.
import { StatusError, type StatusDetails } from '../../registry/errors/status-error.ts';

/** A failure to talk to the webhook (transport, bad response): its failurePolicy decides. */
export class CallingWebhookError extends Error {
  /**
   * `statusCode` is what the failure counts as in metrics: the webhook's own error status, 503
   * for transport and response failures, 400 or 500 for failures before the call.
   */
  constructor(
    readonly webhookName: string,
    readonly reason: string,
    readonly statusCode: number,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
    this.name = 'CallingWebhookError';
  }
}

/** The webhook answered and refused the request: `status` is what the client gets. */
export class WebhookRejection extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
    this.name = 'WebhookRejection';
  }
}

/** A webhook response's `status` (metav1.Status) as far as a refusal reads it. */
export interface ResultStatus {
  readonly code?: number;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: StatusDetails;
}

/**
 * ToStatusErr: the webhook's own status with a code of at least 400 and its message prefixed by
 * `admission webhook "<name>" denied the request`; reason and details as the webhook gave them.
 */
export function rejectionStatus(webhookName: string, result: ResultStatus | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  // Below 400 is raised to 400 (kube); a code no HTTP response can carry (Go's WriteHeader panics
  // past 999, a fraction is no code) is the server's failure, never the process's.
  const given = result?.code;
  const code = typeof given !== 'number' || given < 400 ? 400 : Number.isInteger(given) && given <= 599 ? given : 500;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const message = text(result?.message) !== '' ? `${deniedBy}: ${text(result?.message)}` : text(result?.reason) !== '' ? `${deniedBy}: ${text(result?.reason)}` : `${deniedBy} without explanation`;
  const details = typeof result?.details === 'object' && result.details !== null && !Array.isArray(result.details) ? result.details : undefined;
  return new StatusError(code, text(result?.reason), message, details);
}

/** NewDryRunUnsupportedErr: a dry-run request met a webhook with side effects (400). */
export function dryRunUnsupported(webhookName: string): StatusError {
  return new StatusError(400, 'BadRequest', `admission webhook ${JSON.stringify(webhookName)} does not support dry run`);
}

/** apierrors.NewInternalError of a failed call under failurePolicy Fail (500, the cause repeated). */
export function failedClosed(err: Error): StatusError {
  return new StatusError(500, 'InternalError', `Internal error occurred: ${err.message}`, { causes: [{ reason: '', message: err.message }] });
}
