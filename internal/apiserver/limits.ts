/** Limits of the HTTP layer, in one place. */

/** Request bodies larger than this answer 413. */
export const requestBodyBytesMax = 3 * 1024 * 1024;

/** A request body not received whole within this long answers 408 (kube-apiserver's default request timeout). */
export const requestBodyTimeoutMsDefault = 60_000;

/**
 * A request that is not long-running (all but watches) answers 504 Timeout after this long, or
 * after its `timeout` parameter when shorter (kube-apiserver's --request-timeout default).
 */
export const requestTimeoutMsMax = 60_000;

/** Concurrent streams one HTTP/2 connection may open (kube-apiserver's since the 2023 rapid-reset fixes). */
export const http2StreamsPerConnectionMax = 100;

/** A connection with no request (HTTP/1.1 keep-alive) or no open stream (HTTP/2) is closed after this long (kube-apiserver's IdleTimeout). */
export const idleConnectionTimeoutMs = 90_000;

/**
 * A watch whose client takes nothing of a piece written to it (at most 64 KiB) for this long is
 * dropped: what waits for it (its initial objects, its share of the store's queue) is held only
 * that long for a stuck client, however slowly a reading one goes.
 */
export const watchStallTimeoutMsDefault = 60_000;

/** A watch ends after this long unless `timeoutSeconds` asks for less (clients re-watch). */
export const watchTimeoutSecondsMax = 30 * 60;

/** Longest `timeoutSeconds` a watch may ask for, and the default when it asks for none. */
export const watchTimeoutSecondsDefault = 30 * 60;

/**
 * How long before its deadline a watch that allows bookmarks gets one, as kube-apiserver's watch
 * cache sends it: the client then resumes from there instead of listing again.
 */
export const watchDeadlineBookmarkLeadMs = 2000;

/** Responses at least this large are gzipped when the client accepts it. */
export const gzipBytesMin = 128;

/** How long `close()` waits for open requests before cutting connections. */
export const shutdownGraceMs = 2000;

/**
 * How long a closing server keeps idle HTTP/1.1 connections open, refusing what arrives on them
 * with a 503, before it ends them (see close() in index.ts).
 */
export const closingDrainMs = 2000;

/** How long a request refused while the server closes may take to send its body before the 503 goes anyway. */
export const closingBodyWaitMs = 1000;

/** Most warnings returned in `Warning` headers on one response. */
export const warningsMax = 50;

/**
 * Characters of one warning kept once a response's warnings pass warningsRunesTotalMax (kube's
 * truncateItemRunes); also the length a deeply nested field path is elided to in a warning.
 */
export const warningCharsMax = 256;

/** Characters a response's warnings may add up to before each is cut (kube's truncateAtTotalRunes). */
export const warningsRunesTotalMax = 4096;

/**
 * Most unknown or duplicate fields named in one answer (strict decoding error or warnings); the rest
 * are only counted. A body may repeat a key thousands of times, each at a path as deep as the body.
 */
export const fieldProblemsNamedMax = 100;

/** Attempts at creating the bootstrap namespaces (one round per retry period). */
export const bootstrapAttemptsMax = 120;

/** Pause between bootstrap rounds while the store is not ready. */
export const bootstrapRetryMs = 1000;

/** How long start waits for the bootstrap namespaces before returning anyway. */
export const bootstrapWaitMs = 2000;

/**
 * Deepest nesting of objects and arrays a JSON body may have (400 past it): kube-apiserver's Go
 * decoder stops at 10,000; orch's walks over an object (schema, field manager, patches) recurse,
 * and a free-form field (a ControllerRevision's data) nested 2,000 deep overflowed them.
 */
export const bodyNestingDepthMax = 1000;

/**
 * How long a replica asked for a snapshot (`GET /orch/v1/snapshot`) waits to confirm, through a
 * ReadIndex round with the leader, that it has applied every write acknowledged before the
 * request: past it the download is refused (503) rather than made of possibly stale data.
 */
export const snapshotReadBarrierTimeoutMs = 5000;

/**
 * A snapshot download whose client takes nothing for this long is cut: its copy of the store on
 * disk and its download slot are held only that long for a stuck client, however slowly a reading
 * one goes (as watchStallTimeoutMsDefault for watches).
 */
export const snapshotStallTimeoutMsDefault = 60_000;

/** Objects read per page of a LIST sent in pieces (no limit asked): about what the server holds of it at once. */
export const listPiecesPageItems = 250;

/** Characters of a LIST's JSON gathered before they are written in pieces (fewer, larger writes). */
export const listPieceCharsMin = 64 * 1024;
