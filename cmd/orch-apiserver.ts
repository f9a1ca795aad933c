// One replica of orch: the HTTPS API and a node of the Raft group. Flags -> config -> start.
import { join } from 'node:path';
import { ensureAdminToken } from '../internal/cluster/admin-token.ts';
import { FlagError, parseReplicaFlags, type ReplicaFlags } from '../internal/replica/parse-flags.ts';
import { startReplica } from '../internal/replica/start-replica.ts';
import { Logger } from '../internal/logging/logger.ts';
import { routeProcessOutput } from '../internal/logging/process-output.ts';

// Every line on stderr is one JSON object, a flag's refusal included (internal/logging/logger.ts).
let flags: ReplicaFlags;
try {
  flags = parseReplicaFlags(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof FlagError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw error;
  Logger.create({ component: 'orch-apiserver', verbosity: 0 }).error((error as Error).message);
  process.exit(2);
}

const logger = Logger.create({ component: 'orch-apiserver', replica: flags.name, verbosity: flags.observability.verbosity });
routeProcessOutput(logger);
// TEST ONLY: ORCH_TESTING_PLANTED_BUG=stale-reads plants a bug the chaos checkers must catch
// (consistent reads served locally, without ReadIndex). Read here only; never set it in production.
const plantedBug = process.env.ORCH_TESTING_PLANTED_BUG;
if (plantedBug !== undefined && plantedBug !== '' && plantedBug !== 'stale-reads') {
  logger.error(`ORCH_TESTING_PLANTED_BUG="${plantedBug}" is not a known planted bug (stale-reads)`);
  process.exit(2);
}
for (const warning of flags.authentication.warnings) logger.warn(warning);
// A replica removed from the group stops (etcd's removed member does): until the shutdown below
// exists, a removal is only remembered.
let removed = false;
let stopWhenRemoved = (): void => {
  removed = true;
};
const replica = await startReplica({
  onRemoved: () => stopWhenRemoved(),
  name: flags.name,
  dataDir: flags.dataDir,
  pkiDir: flags.pkiDir ?? join(flags.dataDir, 'pki'),
  // --admin-token-file: one more token-file entry, orch-admin in system:masters (the file is made when missing).
  ...(flags.authentication.adminTokenFile === null ? {} : { adminToken: ensureAdminToken(flags.authentication.adminTokenFile) }),
  authentication: flags.authentication.options,
  api: flags.advertiseAddress,
  peerListen: flags.peerAddress,
  peers: flags.peers,
  join: flags.join,
  initialClusterState: flags.initialClusterState,
  apiDomain: flags.apiDomain,
  retentionMs: flags.retentionMs,
  tickMs: flags.tickMs,
  electionTicks: flags.electionTicks,
  snapshotEveryEntries: flags.snapshotEveryEntries,
  snapshotEveryBytes: flags.snapshotEveryBytes,
  snapshotCatchUpEntries: flags.snapshotCatchUpEntries,
  serviceNetwork: flags.serviceNetwork,
  authorization: flags.authorization,
  admission: flags.admission,
  flowControl: flags.flowControl,
  serving: flags.serving,
  controllers: flags.controllers,
  signing: flags.signing,
  audit: flags.audit,
  ...(plantedBug === 'stale-reads' ? { testingServeConsistentReadsLocally: true } : {}),
  logger,
  tracing: flags.observability.tracing,
}).catch((error: unknown) => {
  // A file a flag names that cannot be used (a signing CA whose key does not match, a token file
  // with a bad line): one line naming it, not a stack.
  logger.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
logger.info(`serving https://${flags.advertiseAddress.host}:${replica.api.port}, peers on ${flags.peerAddress}`, {
  api: `https://${flags.advertiseAddress.host}:${replica.api.port}`, peers: flags.peerAddress, verbosity: flags.observability.verbosity,
  tracing: flags.observability.tracing === null ? 'off' : flags.observability.tracing.url,
});
if (plantedBug === 'stale-reads') logger.warn('TEST ONLY planted bug stale-reads: consistent reads skip ReadIndex');

let stopping = false;
const shutdown = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  logger.info(`shutting down in ${flags.shutdownDelayMs} ms`);
  replica.api.beginShutdown();
  await new Promise((r) => setTimeout(r, flags.shutdownDelayMs));
  await replica.stop();
  process.exit(0);
};
stopWhenRemoved = () => void shutdown();
if (removed) stopWhenRemoved();
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
