// `make chaos`: one long chaos run against real replica processes, then the checks.
// Usage: node --import tsx test/chaos/run-chaos.ts --duration=<seconds> [--seed=<n>] [--processes=<n>] [--keys=<n>] [--planted-bug=stale-reads]
// Prints the seed (same seed, same fault schedule), the numbers and every violation; exits 1 on any.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeResult, runChaos } from './chaos-run.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '600' },
    seed: { type: 'string' },
    processes: { type: 'string', default: '6' },
    keys: { type: 'string', default: '30' },
    'planted-bug': { type: 'string' },
    'replica-logs': { type: 'boolean', default: false },
  },
  strict: true,
});

function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) {
    console.error(`run-chaos: --${flag}=${text} is not a positive integer`);
    process.exit(2);
  }
  return n;
}

const seed = values.seed === undefined || values.seed === '' ? Math.floor(Math.random() * 2 ** 31) : positiveInt(values.seed, 'seed');
const durationS = positiveInt(values.duration, 'duration');
const started = Date.now();
const log = (line: string): void => {
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
};
log(`chaos: seed ${seed} (replay with --seed=${seed}), duration ${durationS} s`);
let closeRun: (() => Promise<void>) | undefined;
const interrupt = (signal: NodeJS.Signals): void => {
  log(`chaos: ${signal}: stopping every replica and proxy`);
  void (closeRun?.() ?? Promise.resolve()).finally(() => process.exit(130));
};
process.once('SIGINT', interrupt);
process.once('SIGTERM', interrupt);
const result = await runChaos({
  onStarted: (close) => {
    closeRun = close;
  },
  durationMs: durationS * 1000,
  seed,
  processes: positiveInt(values.processes, 'processes'),
  keys: positiveInt(values.keys, 'keys'),
  ...(values['planted-bug'] === undefined ? {} : { replicaEnv: { ORCH_TESTING_PLANTED_BUG: values['planted-bug'] } }),
  showReplicaLogs: values['replica-logs'],
  log,
});
for (const line of describeResult(result)) log(line);
if (result.verdict.violations.length > 0) {
  const file = join(tmpdir(), `orch-chaos-${seed}.json`);
  writeFileSync(file, JSON.stringify({ seed, history: result.history, watchLogs: result.watchLogs, faults: result.nemesis.faults, violations: result.verdict.violations }));
  log(`history, watch logs and faults written to ${file}`);
}
process.exit(result.verdict.violations.length > 0 ? 1 : 0);
