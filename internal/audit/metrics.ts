// kube-apiserver's audit metrics (k8s.io/apiserver pkg/audit/metrics.go) on the replica's registry.
import { Counter, type Registry } from 'prom-client';
import type { Level } from './policy.ts';

/** The audit counters. */
export class AuditMetrics {
  private readonly events: Counter;
  private readonly errors: Counter<'plugin'>;
  private readonly levels: Counter<'level'>;
  private readonly rejected: Counter;

  constructor(registry: Registry) {
    this.events = new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', registers: [registry] });
    this.errors = new Counter({
      name: 'apiserver_audit_error_total',
      help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
      labelNames: ['plugin'],
      registers: [registry],
    });
    this.levels = new Counter({ name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labelNames: ['level'], registers: [registry] });
    this.rejected = new Counter({ name: 'apiserver_audit_requests_rejected_total', help: 'Counter of apiserver requests rejected due to an error in audit logging backend.', registers: [registry] });
  }

  /** One event handed to the backends (any stage). */
  event(): void {
    this.events.inc();
  }

  /** `count` events `plugin` (log, webhook, buffered) failed to store or send, or dropped. */
  pluginError(plugin: string, count = 1): void {
    this.errors.inc({ plugin }, count);
  }

  /** The level the policy gave one request. */
  level(level: Level): void {
    this.levels.inc({ level });
  }

  /** A request refused because its first event could not be stored (blocking-strict). */
  requestRejected(): void {
    this.rejected.inc();
  }
}
