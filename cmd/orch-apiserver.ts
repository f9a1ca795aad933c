// One replica of orch: the HTTPS API and a node of the Raft group. Flags -> config -> start.
import { join } from 'node:path';
import { ensureAdminToken } from '../internal/cluster/admin-token.ts';
import { FlagError, parseReplicaFlags, type ReplicaFlags } from '../internal/replica/parse-flags.ts';
import { startReplica } from '../internal/replica/start-replica.ts';

let flags: ReplicaFlags;
try {
  flags = parseReplicaFlags(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof FlagError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw error;
  console.error(`orch-apiserver: ${(error as Error).message}`);
  process.exit(2);
}

const log = (message: string, err?: unknown): void => {
  console.error(`${new Date().toISOString()} ${flags.name}: ${message}${err === undefined ? '' : ` ${err instanceof Error ? err.stack : String(err)}`}`);
};
// TEST ONLY: ORCH_TESTING_PLANTED_BUG=stale-reads plants a bug the chaos checkers must catch
// (consistent reads served locally, without ReadIndex). Read here only; never set it in production.
const plantedBug = process.env.ORCH_TESTING_PLANTED_BUG;
if (plantedBug !== undefined && plantedBug !== '' && plantedBug !== 'stale-reads') {
  console.error(`orch-apiserver: ORCH_TESTING_PLANTED_BUG="${plantedBug}" is not a known planted bug (stale-reads)`);
  process.exit(2);
}
for (const warning of flags.authentication.warnings) log(warning);
const replica = await startReplica({
  name: flags.name,
  dataDir: flags.dataDir,
  pkiDir: flags.pkiDir ?? join(flags.dataDir, 'pki'),
  // --admin-token-file: one more token-file entry, orch-admin in system:masters (the file is made when missing).
  ...(flags.authentication.adminTokenFile === null ? {} : { adminToken: ensureAdminToken(flags.authentication.adminTokenFile) }),
  authentication: flags.authentication.options,
  api: flags.advertiseAddress,
  peerListen: flags.peerAddress,
  peers: flags.peers,
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
  serving: flags.serving,
  controllers: flags.controllers,
  signing: flags.signing,
  ...(plantedBug === 'stale-reads' ? { testingServeConsistentReadsLocally: true } : {}),
  log,
}).catch((error: unknown) => {
  // A file a flag names that cannot be used (a signing CA whose key does not match, a token file
  // with a bad line): one line naming it, not a stack.
  console.error(`orch-apiserver: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
log(`serving https://${flags.advertiseAddress.host}:${replica.api.port}, peers on ${flags.peerAddress}`);
if (plantedBug === 'stale-reads') log('TEST ONLY planted bug stale-reads: consistent reads skip ReadIndex');

let stopping = false;
const shutdown = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  log(`shutting down in ${flags.shutdownDelayMs} ms`);
  replica.api.beginShutdown();
  await new Promise((r) => setTimeout(r, flags.shutdownDelayMs));
  await replica.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
