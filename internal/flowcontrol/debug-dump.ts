// The text dumps kube-apiserver serves under /debug/api_priority_and_fairness/ (apf_controller_debug):
// a row per priority level, a row per queue; cells end in ",", padded into columns as Go's
// tabwriter (minimum width 8, padding 1) pads them.
import type { LevelReport } from './flow-control.ts';

/** Lays out rows as Go's tabwriter.NewWriter(w, 8, 0, 1, ' ', 0) does with ",\t"-ended cells. */
function tabulate(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, Math.max(8, cell.length + 2))));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? `${cell},` : `${cell},`.padEnd(widths[i] ?? 8))).join('')).join('\n') + '\n';
}

const levelHeaders = ['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests'];

/** /debug/api_priority_and_fairness/dump_priority_levels */
export function dumpPriorityLevels(levels: readonly LevelReport[]): string {
  const rows = [levelHeaders];
  for (const { level, queues, executing } of levels) {
    if (queues === null) {
      rows.push([level.name, '<none>', '<none>', '<none>', '<none>', String(executing), '<none>', '<none>', '<none>', '<none>']);
      continue;
    }
    const rejected = queues.rejected['queue-full'] + queues.rejected['concurrency-limit'];
    rows.push([
      level.name, String(queues.activeQueues), String(queues.waitingRequests === 0 && queues.executingRequests === 0), 'false',
      String(queues.waitingRequests), String(queues.executingRequests), String(queues.dispatched), String(rejected), String(queues.rejected['time-out']), String(queues.rejected.cancelled),
    ]);
  }
  return tabulate(rows);
}

const queueHeaders = ['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse'];

/** /debug/api_priority_and_fairness/dump_queues */
export function dumpQueues(levels: readonly LevelReport[]): string {
  const rows = [queueHeaders];
  for (const { level, queues } of levels) {
    if (queues === null) {
      rows.push([level.name, '<none>', '<none>', '<none>', '<none>']);
      continue;
    }
    for (const q of queues.queues) rows.push([level.name, String(q.index), String(q.waitingRequests), String(q.executingRequests), String(q.executingSeats)]);
  }
  return tabulate(rows);
}
