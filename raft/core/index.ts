/** The public surface of the Raft core: a pure, synchronous Raft state machine. */
export * from './types.ts';
export type { LogStorage } from './log-storage.ts';
export type { RaftConfig } from './config.ts';
export { validateConfig } from './config.ts';
export { MemoryStorage, emptyConfState } from './memory-storage.ts';
export { RawNode } from './raw-node.ts';
export type { RaftStatus, ProgressStatus } from './status.ts';
export type { ProgressState } from './progress.ts';
export { encodeConfChange, decodeConfChange } from './conf-change-codec.ts';
export { makeMessage, isLocalOnly } from './message.ts';
