// Starts bench/list-flooder.ts in a process of its own and hands it its orders.
import { spawn, type ChildProcess } from 'node:child_process';
import { entryPointArgs, repoRoot } from '../internal/cluster/build-layout.ts';
import type { FloodCounts, FloodOrders } from './list-flooder.ts';

/** A running flooder: `counts` settles with what the flood was answered; the caller kills `child` if it fails. */
export interface ListFlooder {
  readonly child: ChildProcess;
  readonly counts: Promise<FloodCounts>;
  /** Ends the flood before its time (its requests in flight are answered first). */
  stop(): void;
}

export function startListFlooder(orders: FloodOrders): ListFlooder {
  const child = spawn(process.execPath, entryPointArgs('bench/list-flooder.ts'), { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const counts = new Promise<FloodCounts>((resolve, reject) => {
    child.once('message', (m) => resolve(m as FloodCounts));
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`the flooder exited (${String(code ?? signal)}) without its counts`)));
  });
  child.send(orders);
  return { child, counts, stop: () => child.connected && child.send('stop') };
}
