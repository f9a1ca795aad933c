// One replica's store over a single-node Raft group (gRPC with mutual TLS on 127.0.0.1, fast test
// timings), as crash tests start it in a child process and again after the kill.
import { ensureClusterPki } from '../../internal/certificates/index.ts';
import { openRaftStorage, type RaftStorage } from '../../internal/storage/raft-storage.ts';

/** Opens replica `n1` in `dataDir` (certificates in `pkiDir`, created on first use) listening on `port`. */
export async function openSingleReplica(options: {
  dataDir: string;
  pkiDir: string;
  port: number;
  snapshotEveryEntries: number;
  snapshotCatchUpEntries?: number;
}): Promise<RaftStorage> {
  const pki = await ensureClusterPki(options.pkiDir, ['n1']);
  const pair = pki.replicas['n1'];
  if (pair === undefined) throw new Error('no certificate for n1');
  const address = `127.0.0.1:${options.port}`;
  return openRaftStorage({
    dataDir: options.dataDir,
    replicaName: 'n1',
    raft: {
      id: 'n1', peers: { n1: address }, listen: address, tls: { ca: pki.ca.cert, cert: pair.cert, key: pair.key },
      tickMs: 20, electionTicks: 10, heartbeatTicks: 1, snapshotEveryEntries: options.snapshotEveryEntries,
      ...(options.snapshotCatchUpEntries !== undefined ? { snapshotCatchUpEntries: options.snapshotCatchUpEntries } : {}),
    },
  });
}
