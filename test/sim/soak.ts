/**
 * Soak CLI: runs many simulation seeds (3- and 5-node mixed unless --nodes is given), prints
 * progress and seeds/second, and on a failure prints SEED=<n>, the violation and how to replay it,
 * then exits 1: at the first failure, or with --keep-going after every seed, with the count (one
 * rare failure says little about how rare; a soak that stops there cannot tell).
 * Replay one seed with --seed=<n>.
 *   node --import tsx test/sim/soak.ts --seeds=10000 [--seed=S] [--from=S] [--nodes=3|5] [--steps=N]
 *     [--keep-going] [--bug=voteNotPersisted|voteWithoutLogCheck|commitPriorTermByCounting]  (plant a core bug)
 */
import type { PlantedBugs } from '../../raft/core/types.ts';
import { runSeed } from './run-seed.ts';

function arg(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

function intArg(name: string): number | undefined {
  const raw = arg(name);
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${raw}`);
  return n;
}

function main(): number {
  const only = intArg('seed');
  const count = only === undefined ? (intArg('seeds') ?? 1000) : 1;
  const first = only ?? intArg('from') ?? 1;
  const nodesArg = intArg('nodes');
  if (nodesArg !== undefined && nodesArg !== 3 && nodesArg !== 5) throw new Error('--nodes must be 3 or 5');
  const nodes = nodesArg as 3 | 5 | undefined;
  const steps = intArg('steps');
  const bug = arg('bug');
  const bugs: PlantedBugs | undefined = bug === undefined ? undefined : { [bug]: true };
  const keepGoing = process.argv.includes('--keep-going');
  const failed: number[] = [];
  const started = Date.now();
  let lastPrint = started;
  for (let i = 0; i < count; i++) {
    const seed = first + i;
    const r = runSeed({ seed, bugs, ...(nodes === undefined ? {} : { nodes }), ...(steps === undefined ? {} : { steps }) });
    if (!r.ok) {
      console.log(`SEED=${seed} nodes=${r.nodes} profile=${r.profile}`);
      console.log(`violation: ${r.violation ?? ''}`);
      const extra = `${steps === undefined ? '' : ` --steps=${steps}`}${bug === undefined ? '' : ` --bug=${bug}`}`;
      console.log(`replay: node --import tsx test/sim/soak.ts --seed=${seed}${nodes === undefined ? '' : ` --nodes=${nodes}`}${extra}`);
      if (!keepGoing) return 1;
      failed.push(seed);
    } else if (only !== undefined) {
      console.log(`SEED=${seed} ok nodes=${r.nodes} profile=${r.profile} trace=${r.traceHash} ${JSON.stringify(r.stats)}`);
    }
    const now = Date.now();
    if (now - lastPrint >= 5000 || i === count - 1) {
      const rate = ((i + 1) * 1000) / Math.max(1, now - started);
      console.log(`${i + 1 - failed.length}/${count} seeds ok, ${rate.toFixed(1)} seeds/s`);
      lastPrint = now;
    }
  }
  if (failed.length > 0) console.log(`${failed.length} of ${count} seeds failed: ${failed.join(' ')}`);
  return failed.length > 0 ? 1 : 0;
}

process.exitCode = main();
