// A child process for crash tests: one replica's store over a single-node Raft group (snapshots
// every `snapshotEvery` entries, no entries kept behind them), `count` or more acknowledged creates
// of `/k/<i>`, until a snapshot cut the log and its state file lags what it applied (an open commit
// batch). Then, in the same turn, so that no commit comes between, it writes its report to
// `<data dir>/report.json` and SIGKILLs itself.
// `node --import tsx test/support/raft-store-until-killed.ts <data dir> <pki dir> <port> <count> <snapshotEvery>`
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAppliedIndex } from '../../internal/storage/sqlite-state-machine.ts';
import { openSingleReplica } from './single-replica.ts';

const [dataDir, pkiDir, port, count, snapshotEvery] = [process.argv[2] ?? '', process.argv[3] ?? '', Number(process.argv[4]), Number(process.argv[5]), Number(process.argv[6])];
const replica = await openSingleReplica({ dataDir, pkiDir, port, snapshotEveryEntries: snapshotEvery, snapshotCatchUpEntries: 0 });
while (!replica.node.isLeader()) await new Promise((resolve) => setTimeout(resolve, 10));
const revisions: Record<string, number> = {};
const statePath = join(dataDir, 'state', 'state.db');
const unfinished = (i: number): boolean => i <= count || replica.node.status().snapshotIndex === 0 || readAppliedIndex(statePath) >= replica.node.appliedIndex();
for (let i = 1; unfinished(i); i++) {
  const kv = await replica.storage.create(`/k/${i}`, new TextEncoder().encode(`v${i}`));
  revisions[kv.key] = kv.modRevision;
}
const report = { revisions, applied: replica.node.appliedIndex(), committed: readAppliedIndex(statePath) };
writeFileSync(join(dataDir, 'report.json'), JSON.stringify(report));
process.kill(process.pid, 'SIGKILL');
