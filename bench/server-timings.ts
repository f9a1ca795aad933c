// What orch's store replicas measure of their own writes (raft/node.ts `timings`): the log's fsyncs,
// the leader's proposal-to-commit times and the applies. A store replica keeps the samples; the
// benchmark takes them after each write point, to split a write's latency into its parts.
import { request } from 'undici';
import type { RaftNodeMetrics, RaftTimings } from '../raft/node.ts';
import { summarize, type LatencySummary } from './stats.ts';

/** Samples kept per kind between two takes; a point at c=256 makes some tens of thousands. */
const samplesKeptMax = 200_000;

/** One replica's samples since the last take, in milliseconds (a plain JSON body, hence a type). */
export type TimingSamples = {
  readonly fsyncMs: number[];
  readonly commitMs: number[];
  readonly applyMs: number[];
  /** Samples not kept (over `samplesKeptMax` of a kind). */
  dropped: number;
  /** The replica's Raft counters when taken (entries persisted, relays): diagnostics compare two takes. */
  raft?: RaftNodeMetrics;
};

/** The samples of every replica over one write point, summarized. */
export interface ServerTimings {
  /** Each fdatasync of a Raft log, in any replica. */
  readonly fsync: LatencySummary;
  /** Each proposal a leader made itself, from its arrival to its commit (writes sent to followers are relayed, and not timed). */
  readonly commit: LatencySummary;
  /** Each apply of one Ready's committed entries, in any replica. */
  readonly apply: LatencySummary;
  /** Samples the replicas did not keep: the summaries then cover the start of the point only. */
  readonly dropped: number;
}

/** A replica's recorder: hand it to the Raft node as `timings`, serve `take()`. */
export class TimingRecorder implements RaftTimings {
  private samples: TimingSamples = { fsyncMs: [], commitMs: [], applyMs: [], dropped: 0 };

  logSynced(seconds: number): void {
    this.keep(this.samples.fsyncMs, seconds);
  }

  committed(seconds: number): void {
    this.keep(this.samples.commitMs, seconds);
  }

  applied(seconds: number): void {
    this.keep(this.samples.applyMs, seconds);
  }

  /** The samples since the last take; starts afresh. */
  take(): TimingSamples {
    const taken = this.samples;
    this.samples = { fsyncMs: [], commitMs: [], applyMs: [], dropped: 0 };
    return taken;
  }

  private keep(samples: number[], seconds: number): void {
    if (samples.length < samplesKeptMax) samples.push(seconds * 1000);
    else this.samples.dropped++;
  }
}

/** Takes every replica's samples (`GET <url>/timings`, bench/store-http.ts) and summarizes them together. */
export async function takeServerTimings(clientUrls: readonly string[]): Promise<ServerTimings> {
  const all = await Promise.all(clientUrls.map(async (url) => {
    const res = await request(`${url}/timings`);
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET ${url}/timings: ${res.statusCode} ${text.slice(0, 200)}`);
    return JSON.parse(text) as TimingSamples;
  }));
  return {
    fsync: summarize(all.flatMap((s) => s.fsyncMs)),
    commit: summarize(all.flatMap((s) => s.commitMs)),
    apply: summarize(all.flatMap((s) => s.applyMs)),
    dropped: all.reduce((sum, s) => sum + s.dropped, 0),
  };
}
