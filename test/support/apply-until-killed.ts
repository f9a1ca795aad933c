// A child process for crash tests: opens a replica's state database with batched commits, applies
// `creates(1, count)` one entry per apply, reports its applied index to the parent, then waits to be
// killed. `node --import tsx test/support/apply-until-killed.ts <db path> <count> <entriesMax>`
import { SqliteStateMachine } from '../../internal/storage/sqlite-state-machine.ts';
import { creates } from './state-entries.ts';

const [path, count, entriesMax] = [process.argv[2] ?? '', Number(process.argv[3]), Number(process.argv[4])];
// A batch that only fills or a close can commit: what the kill loses is exactly the open batch.
const machine = SqliteStateMachine.open(path, { commitBatch: { intervalMs: 600_000, entriesMax } });
for (const entry of creates(1, count)) machine.applyEntries([entry]);
process.send?.({ applied: machine.appliedIndex() });
setInterval(() => {}, 60_000);
