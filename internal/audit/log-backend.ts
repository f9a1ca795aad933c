// The log backend (k8s.io/apiserver plugin/pkg/audit/log): one line per event, the event's JSON
// (format json) or kube's legacy one-line text (format legacy), written synchronously, so that an
// event is in the file before the answer it describes is sent (kube's blocking mode). A write that
// fails is counted (apiserver_audit_error_total{plugin="log"}) and logged; only blocking-strict
// makes it fail the request.
import { goQuote } from '../authz/go-format.ts';
import type { AuditEvent } from './event.ts';
import { formatMicroTime } from './event.ts';
import type { AuditMetrics } from './metrics.ts';
import type { AuditSink } from './sink.ts';

/** The line formats of --audit-log-format. */
export type LogFormat = 'json' | 'legacy';

/** The log backend's parts. */
export interface LogBackendOptions {
  readonly format: LogFormat;
  /** blocking-strict: a failed write refuses the request (its first event). */
  readonly strict: boolean;
  /** Appends one line; throws when it cannot. */
  readonly write: (line: string) => void;
  readonly close: () => void;
  readonly metrics: AuditMetrics;
  /** The replica's `(message, err?)` log: with an error, a line at level error. */
  readonly log: (message: string, err?: unknown) => void;
}

/** Go's time.RFC3339Nano in UTC: fraction without trailing zeros. */
function rfc3339Nano(ms: number): string {
  const micro = formatMicroTime(ms);
  return micro.replace(/\.?0+Z$/, 'Z');
}

function quotedList(items: readonly string[]): string {
  return items.map((item) => goQuote(item)).join(',');
}

/** kube's audit.EventString: the legacy format's line, without its newline. */
export function legacyLine(ev: AuditEvent): string {
  const user = ev.user;
  const username = user !== undefined && user.username !== '' ? user.username : '<none>';
  const groups = user !== undefined && user.username !== '' && user.groups.length > 0 ? quotedList(user.groups) : '<none>';
  const as = ev.impersonatedUser?.username ?? '<self>';
  const asGroups = ev.impersonatedUser === undefined ? '<lookup>' : quotedList(ev.impersonatedUser.groups);
  const namespace = ev.objectRef?.namespace !== undefined && ev.objectRef.namespace !== '' ? ev.objectRef.namespace : '<none>';
  const response = ev.responseStatus === undefined ? '<deferred>' : String(ev.responseStatus.code ?? 0);
  const ip = ev.sourceIPs[0] ?? '<unknown>';
  const fields: [string, string][] = [
    ['id', ev.auditID], ['stage', ev.stage], ['ip', ip], ['method', ev.verb], ['user', username], ['groups', groups], ['as', as], ['asgroups', asGroups],
    ['user-agent', ev.userAgent], ['namespace', namespace], ['uri', ev.requestURI],
  ];
  return `${rfc3339Nano(ev.requestReceivedMs)} AUDIT: ${fields.map(([k, v]) => `${k}=${goQuote(v)}`).join(' ')} response="${response}"`;
}

/** Impacted events listed in one plugin-error line at most; the rest are counted. */
export const impactedEventsListedMax = 5;

/**
 * kube's audit.HandlePluginError message: `Error in audit plugin '<plugin>' affecting N audit
 * events: <error>`, then `Impacted events:` and each event's legacy line (at most
 * impactedEventsListedMax, then `... and N more`). Log it at level error, with the error.
 */
export function pluginErrorMessage(plugin: string, error: string, impacted: readonly AuditEvent[], count = impacted.length): string {
  const listed = impacted.slice(0, impactedEventsListedMax).map((ev) => `${legacyLine(ev)}\n`).join('');
  const more = count - Math.min(impacted.length, impactedEventsListedMax);
  return `Error in audit plugin '${plugin}' affecting ${count} audit events: ${error}\nImpacted events:\n${listed}${more > 0 ? `... and ${more} more\n` : ''}`;
}

/** A log backend writing through `options.write`. */
export function logBackend(options: LogBackendOptions): AuditSink {
  return {
    processEvents(events) {
      let stored = true;
      for (const { event, json } of events) {
        try {
          options.write(`${options.format === 'json' ? json : legacyLine(event)}\n`);
        } catch (err) {
          stored = false;
          options.metrics.pluginError('log');
          // Given the error, the replica's log function writes the line at level error.
          options.log(pluginErrorMessage('log', (err as Error).message, [event]), err);
        }
      }
      return stored || !options.strict;
    },
    shutdown() {
      options.close();
      return Promise.resolve();
    },
  };
}
