// The public surface of the orch client library, for callers that want one import.
export { OrchClient, type OrchClientOptions, type KubeconfigClientOptions, type RequestOptions, type Query, type OpenStream } from './client.ts';
export { ApiError, UnknownOutcomeError, UnavailableError, KubeconfigError, WatchError, ExecPluginError, type StatusObject } from './errors.ts';
export { StaticCredentials, type CredentialProvider, type Credentials } from './credentials.ts';
export { ExecCredentialProvider, sharedExecCredentialProvider, type ExecCredentialOptions } from './exec-credential.ts';
export { parseExecConfig, execApiVersions, type ExecConfig, type ExecApiVersion, type ExecInteractiveMode, type ExecEnvVar } from './exec-config.ts';
export { runExecPlugin, execInfo, type ExecAnswer, type ExecClusterInfo, type ExecRunOptions } from './exec-plugin.ts';
export { loadKubeconfig, parseKubeconfig, resolveContext, sameCaServers, type Kubeconfig, type ResolvedContext } from './kubeconfig.ts';
export { watch, type WatchEvent, type WatchOptions, type WatchStreamInfo } from './watch.ts';
export { Informer, type InformerHandlers, type InformerOptions } from './informer.ts';
export { listAll, type ListSnapshot } from './list-pager.ts';
export { objectKey, type KubeObject, type ObjectList } from './objects.ts';
export type { BalancePolicy } from './balancer.ts';
export type { Clock } from './backoff.ts';
