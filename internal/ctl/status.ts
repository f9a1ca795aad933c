// `orchctl status`: every replica's view of itself (reachable or not), then the membership as the
// leader sees it.
import { outputFormat, parseCommandArgs, printedHelp, requirePositionals } from './args.ts';
import { CtlError, type CtlCommand } from './command.ts';
import { connectionOptions, connectionUsage, withConnection, type Connection } from './connection.ts';
import { causeText, isAbort } from './errors.ts';
import { getMembers, getStatus, type MembersView, type ReplicaStatus } from './maintenance-api.ts';
import { cellText, formatBytes, formatJson, formatTable } from './output.ts';

/** One replica as status reports it: its answer, or why there was none. */
export interface ReplicaReport {
  readonly endpoint: string;
  readonly reachable: boolean;
  readonly status?: ReplicaStatus;
  readonly error?: string;
  /** The leader's commit index minus this replica's applied index, when the leader answered. */
  readonly lag?: number;
}

/** What `orchctl status -o json` prints. */
export interface ClusterReport {
  readonly replicas: readonly ReplicaReport[];
  readonly membership: MembersView | null;
}

async function reportOf(connection: Connection, endpoint: string): Promise<ReplicaReport> {
  try {
    const status = await getStatus(connection.replicaClient(endpoint), connection.requestSignal());
    return { endpoint, reachable: true, status };
  } catch (error) {
    // The root cause only (refused, timed out, 403...): the row has no room for advice.
    return { endpoint, reachable: false, error: isAbort(error) ? `no answer within ${connection.requestTimeoutText}` : causeText(error) };
  }
}

/** Asks every replica for its status (in parallel), then the leader (else any replica) for the membership. */
export async function collectClusterReport(connection: Connection): Promise<ClusterReport> {
  const reports = await Promise.all(connection.servers.map((endpoint) => reportOf(connection, endpoint)));
  const leader = reports.find((r) => r.status?.role === 'leader');
  const withLag = reports.map((r) =>
    r.status === undefined || leader?.status === undefined ? r : { ...r, lag: Math.max(0, leader.status.commitIndex - r.status.appliedIndex) },
  );
  let membership: MembersView | null = null;
  for (const report of [leader, ...reports].filter((r) => r?.reachable === true)) {
    try {
      membership = await getMembers(connection.replicaClient(report?.endpoint ?? ''), connection.requestSignal());
      break;
    } catch {
      continue;
    }
  }
  return { replicas: withLag, membership };
}

/** The status tables: replicas, then members. */
export function formatClusterReport(report: ClusterReport): string {
  const replicaRows = report.replicas.map((r) => {
    const s = r.status;
    if (s === undefined) return [r.endpoint, '', 'unreachable', '', '', '', '', '', '', '', '', '', r.error ?? ''];
    return [
      r.endpoint, s.name, s.role, s.leader ?? '(none)', String(s.term), String(s.commitIndex), String(s.appliedIndex), String(s.revision),
      r.lag === undefined ? '' : String(r.lag), formatBytes(s.dbSizeBytes.state + s.dbSizeBytes.log), s.version, s.clusterId, '',
    ];
  });
  const headers = ['endpoint', 'name', 'role', 'leader', 'term', 'commit', 'applied', 'revision', 'lag', 'db size', 'version', 'cluster id', 'error'];
  // The error column only when a replica did not answer.
  const columns = report.replicas.every((r) => r.reachable) ? headers.length - 1 : headers.length;
  let text = formatTable(headers.slice(0, columns), replicaRows.map((row) => row.slice(0, columns)));
  if (report.membership === null) return `${text}\nmembership: unknown (no replica answered)\n`;
  const memberRows = report.membership.members.map((m) => [m.name, m.role, m.peerAddress, cellText(m.matchIndex), cellText(m.lag), m.name === report.membership?.leader ? 'yes' : '']);
  text += `\n${formatTable(['member', 'role', 'peer address', 'match index', 'lag', 'leader'], memberRows)}`;
  return text;
}

const usage = `Usage: orchctl status [-o table|json] [connection flags]

Shows every replica: whether it answers, its name, role, the leader it knows, term, commit and
applied index, store revision, lag (the leader's commit index minus its applied index), database
size, version and cluster id; then the membership as the leader sees it. The replicas are the
kubeconfig's servers that share the context's CA, and --endpoints. A replica that does not answer
is a row saying why. Exits 1 when none answers.

Flags:
  -o, --output FORMAT        table (default) or json
${connectionUsage}
`;

export const statusCommand: CtlCommand = {
  name: 'status',
  summary: 'show every replica (role, leader, indexes, revision, lag, size) and the membership',
  usage,
  async run(args, io) {
    const parsed = parseCommandArgs('status', args, { ...connectionOptions, output: { type: 'string', short: 'o' } });
    if (printedHelp(parsed, io, usage)) return 0;
    requirePositionals('status', parsed, 0, 0, 'no arguments');
    const format = outputFormat('status', parsed, ['table', 'json'], 'table');
    const report = await withConnection(parsed, io, collectClusterReport);
    io.stdout(format === 'json' ? formatJson(report) : formatClusterReport(report));
    if (!report.replicas.some((r) => r.reachable)) {
      throw new CtlError(`no replica answered (${report.replicas.length} tried); check that the cluster runs and that the kubeconfig or --endpoints point at it`);
    }
    return 0;
  },
};
