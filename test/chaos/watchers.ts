// Watchers of the workload's objects, recorded as watch logs for checkWatchGuarantees: one pinned
// to each replica (it resumes on the same replica when the stream breaks) and one roaming over all
// replicas (it resumes on another one). Each stream becomes a segment of its watcher's log.
import { setTimeout as sleep } from 'node:timers/promises';
import { OrchClient, watch, type KubeObject } from '../../internal/client/index.ts';
import type { LoggedWatchEvent, WatchLog, WatchSegment } from './checkers/history.ts';
import { workloadLabel, workloadPath } from './workload.ts';

/** A running watcher: its log so far, and how far it got. */
export interface RecordingWatcher {
  readonly log: WatchLog;
  /** The last revision received (event or bookmark). */
  lastResourceVersion(): number;
  /** Stops the watcher and waits for it to finish. */
  stop(): Promise<void>;
}

/** Options of `startWatcher`. */
export interface WatcherOptions {
  readonly name: string;
  /** The replicas it may use: one URL pins it, several let it roam. */
  readonly servers: readonly string[];
  /** Maps an endpoint URL back to a replica name for the log. */
  readonly replicaOf: (url: string) => string;
  readonly caPem: string;
  readonly token: string;
  readonly fromResourceVersion: number;
}

interface MutableSegment {
  replica: string;
  fromResourceVersion: number;
  afterRelist: boolean;
  events: LoggedWatchEvent[];
}

/** Starts a watcher from `fromResourceVersion`; after the watch gives up it starts again from where it got. */
export function startWatcher(options: WatcherOptions): RecordingWatcher {
  const segments: MutableSegment[] = [];
  const abort = new AbortController();
  let last = options.fromResourceVersion;
  const client = new OrchClient({ servers: options.servers, caPem: options.caPem, token: options.token, requestTimeoutMs: 4_000, userAgent: `orch-chaos/${options.name}` });
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const events = watch<KubeObject & { data?: { v?: string } }>(client, {
          path: workloadPath,
          resourceVersion: String(last),
          allowBookmarks: true,
          query: { labelSelector: workloadLabel },
          signal: abort.signal,
          onStream: (info) => {
            segments.push({ replica: options.replicaOf(info.endpoint), fromResourceVersion: Number(info.resourceVersion ?? last), afterRelist: info.afterRelist, events: [] });
          },
        });
        for await (const event of events) {
          const segment = segments.at(-1);
          if (event.type === 'RESYNC' || segment === undefined) {
            last = Number(event.resourceVersion);
            continue;
          }
          const rv = Number(event.resourceVersion);
          if (event.type === 'BOOKMARK') segment.events.push({ type: 'BOOKMARK', key: '', resourceVersion: rv });
          else segment.events.push({ type: event.type, key: event.object.metadata?.name ?? '', resourceVersion: rv, value: event.object.data?.v });
          last = rv;
        }
      } catch {
        // The watch gave up (a replica down for long): start again from the last revision received.
      }
      if (!abort.signal.aborted) await sleep(500);
    }
  })();
  return {
    log: { watcher: options.name, get segments(): readonly WatchSegment[] { return segments; } },
    lastResourceVersion: () => last,
    async stop() {
      abort.abort();
      await loop;
      await client.close();
    },
  };
}
