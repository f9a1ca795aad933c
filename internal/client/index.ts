// The public surface of the orch client library, for callers that want one import.
export { OrchClient, type OrchClientOptions, type RequestOptions, type Query, type OpenStream } from './client.ts';
export { ApiError, UnknownOutcomeError, UnavailableError, KubeconfigError, WatchError, type StatusObject } from './errors.ts';
export { loadKubeconfig, parseKubeconfig, resolveContext, sameCaServers, type Kubeconfig, type ResolvedContext } from './kubeconfig.ts';
export { watch, type WatchEvent, type WatchOptions, type WatchStreamInfo } from './watch.ts';
export { Informer, type InformerHandlers, type InformerOptions } from './informer.ts';
export { listAll, type ListSnapshot } from './list-pager.ts';
export { objectKey, type KubeObject, type ObjectList } from './objects.ts';
export type { BalancePolicy } from './balancer.ts';
export type { Clock } from './backoff.ts';
