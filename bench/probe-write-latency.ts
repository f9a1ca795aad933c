// Diagnostic: single-writer latency on a real 3-process cluster, split by where the request lands
// (the leader or a follower), for creates and consistent GETs. Prints one JSON line per case.
// `node --import tsx bench/probe-write-latency.ts [ops]`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCleanups } from './cleanup.ts';
import { runClosedLoop } from './load.ts';
import { configMap } from './orch-client.ts';
import { ensureNamespace, findLeader, startOrch } from './orch-target.ts';

const ops = Number(process.argv[2] ?? 1000);
const dataDir = mkdtempSync(join(process.env['BENCH_DATA_DIR'] ?? tmpdir(), 'orch-probe-'));
const orch = await startOrch({ dataDir, replicas: 3, readyTimeoutMs: 120_000, connections: 4, timeoutMs: 15_000 });
try {
  const leader = await findLeader(orch);
  if (leader === null) throw new Error('no leader');
  const follower = (leader + 1) % orch.clients.length;
  await ensureNamespace(orch.clients[leader]!, 'probe');
  const base = '/api/v1/namespaces/probe/configmaps';
  for (const [where, index] of [['leader', leader], ['follower', follower]] as const) {
    const client = orch.clients[index]!;
    const create = await runClosedLoop({ concurrency: 1, durationMs: 60_000, opsMax: ops, op: (seq) => client.call('POST', base, configMap(`${where}-${seq}`, 1024), [201]).then(() => undefined) });
    const get = await runClosedLoop({ concurrency: 1, durationMs: 60_000, opsMax: ops, op: (seq) => client.call('GET', `${base}/${where}-${seq % 100}`, undefined, [200]).then(() => undefined) });
    console.log(JSON.stringify({ where, create: create.latency, createErrors: create.errors, get: get.latency }));
  }
} finally {
  await orch.stop();
  runCleanups();
  rmSync(dataDir, { recursive: true, force: true });
}
