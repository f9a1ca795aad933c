/** The public surface of the Raft library: the driver, its durable log and transport, and the core's vocabulary. */
export { RaftNode } from './node.ts';
export type { MemberInfo } from './membership.ts';
export type { RaftEvent, RaftNodeMetrics, RaftNodeOptions, RaftTimings, StateMachineHooks } from './node-types.ts';
export { RaftNodeError } from './errors.ts';
export type { RaftNodeErrorCode } from './errors.ts';
export { SqliteLogStorage } from './sqlite-log-storage.ts';
export { Transport } from './transport.ts';
export type { TlsMaterial, TransportHandlers, TransportOptions } from './transport.ts';
export * from './core/index.ts';
