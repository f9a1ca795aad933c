// Where events go: the backends (log file, webhook) behind one interface, as kube's audit.Sink.
import type { AuditEvent } from './event.ts';

/** An event with its JSON line (encoded once for every backend). */
export interface EncodedEvent {
  readonly event: AuditEvent;
  readonly json: string;
}

/** A backend. */
export interface AuditSink {
  /**
   * Takes events in order. Returns false only when a strict blocking backend could not store one
   * (the request is then refused); other failures are counted and logged, never thrown.
   */
  processEvents(events: readonly EncodedEvent[]): boolean;
  /** Sends or writes what is pending (bounded in time) and releases files and timers. */
  shutdown(): Promise<void>;
}

/** Every backend in turn (kube's union backend): false when any of them said false. */
export function unionSink(sinks: readonly AuditSink[]): AuditSink {
  if (sinks.length === 1 && sinks[0] !== undefined) return sinks[0];
  return {
    processEvents(events) {
      let stored = true;
      for (const sink of sinks) stored = sink.processEvents(events) && stored;
      return stored;
    },
    async shutdown() {
      await Promise.all(sinks.map((s) => s.shutdown()));
    },
  };
}
