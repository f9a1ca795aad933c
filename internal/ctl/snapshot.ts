// `orchctl snapshot save|status|restore`: copy the store of a running cluster to a file, check a
// file, and make a new cluster's data directories from one (docs/operations.md).
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { restoreDataDir } from '../storage/restore-data-dir.ts';
import { verifySnapshotFile, type SnapshotHeader } from '../storage/snapshot-file.ts';
import { outputFormat, parseCommandArgs, parsePeerList, printedHelp, requirePositionals, stringOption } from './args.ts';
import { CtlError, type CtlIo } from './command.ts';
import { connectionOptions, connectionUsage, withConnection, type Connection } from './connection.ts';
import { toCtlError } from './errors.ts';
import { getStatus, maintenanceRoot } from './maintenance-api.ts';
import { formatBytes, formatJson } from './output.ts';
import { saveSnapshotStream, type SavedSnapshot } from './snapshot-writer.ts';
import { commandGroup, type CtlSubcommand } from './subcommands.ts';
import type { OpenStream } from '../client/client.ts';

/** A download that sends nothing for this long is cut (the replica stalled). */
const downloadSilenceMs = 60_000;

/** The header's lines as `snapshot save` and `snapshot status` print them. */
export function formatSnapshotHeader(header: SnapshotHeader, fileBytes?: number): string {
  return [
    `revision:     ${header.revision}`,
    `raft index:   ${header.raftIndex}`,
    `raft term:    ${header.raftTerm}`,
    `cluster id:   ${header.clusterId}`,
    `replica:      ${header.replica}`,
    `created at:   ${header.createdAt}`,
    `format:       ${header.format} (store format ${header.stateFormat})`,
    `size:         ${header.size} bytes (${formatBytes(header.size)})${fileBytes === undefined ? '' : `, ${fileBytes} bytes with the header`}`,
    `sha256:       ${header.sha256}`,
  ].join('\n') + '\n';
}

const saveUsage = `Usage: orchctl snapshot save <file> [--endpoint URL] [-o text|json] [connection flags]

Downloads a consistent copy of the store (GET /orch/v1/snapshot) into <file>.part, checking its
size and sha256 against the file's header as it writes, syncs it to disk and renames it to <file>
(an existing <file> is replaced, as etcdctl snapshot save does). Prints the replica it came from,
its revision, raft index, size and sha256. A cut or corrupt download, or an interrupt (Ctrl-C,
SIGTERM), leaves no <file>.part and the old <file>, if any, as it was.

Without --endpoint it copies from a follower that answers, else from the leader; a replica that
refuses (one that cannot confirm it is current answers 503) is skipped for the next.

Flags:
  --endpoint URL             the only replica to copy from
  -o, --output FORMAT        text (default) or json (the header)
${connectionUsage}
`;

/** How long asking a replica its role may take, at most, before the downloads are tried. */
const roleProbeMs = 5000;

/**
 * The replicas in the order to copy from: followers first (the copy costs the leader nothing),
 * then the leader, then learners and candidates, then those that did not say (still tried: the
 * status call may be denied where the download is not).
 */
export async function downloadOrder(connection: Connection): Promise<string[]> {
  const rank: Readonly<Record<string, number>> = { follower: 0, leader: 1, learner: 2, candidate: 2 };
  const ranked = await Promise.all(
    connection.servers.map(async (server) => {
      try {
        const status = await getStatus(connection.replicaClient(server), AbortSignal.timeout(Math.min(roleProbeMs, connection.requestTimeoutMs)));
        return { server, rank: rank[status.role] ?? 3 };
      } catch {
        return { server, rank: 4 };
      }
    }),
  );
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.server);
}

/** Opens the snapshot download on `endpoint` only, or on the first replica in downloadOrder that sends one. */
async function openDownload(connection: Connection, endpoint: string | undefined, io: CtlIo): Promise<{ stream: OpenStream; source: string }> {
  if (endpoint !== undefined) {
    const source = endpoint.replace(/\/+$/, '');
    return { stream: await connection.replicaClient(source).openStream(`${maintenanceRoot}/snapshot`, {}, new Set(), undefined, downloadSilenceMs), source };
  }
  const failures: string[] = [];
  for (const server of await downloadOrder(connection)) {
    try {
      const stream = await connection.replicaClient(server).openStream(`${maintenanceRoot}/snapshot`, {}, new Set(), undefined, downloadSilenceMs);
      return { stream, source: server };
    } catch (error) {
      // No advice for a 503 here: the next replica is tried, as the note says.
      const reason = toCtlError(error, connection.requestTimeoutText, { 503: '' }).message;
      io.stderr(`${server} sent no snapshot: ${reason}; trying the next replica\n`);
      failures.push(`${server}: ${reason}`);
    }
  }
  throw new CtlError(`no replica sent a snapshot (${failures.join('; ')}); check orchctl status, or pick a replica with --endpoint`);
}

/**
 * Refuses, before anything is downloaded, a <file> the download could not be renamed to: a
 * directory, in a missing or unwritable directory. An existing file is replaced (as etcdctl does).
 */
export async function checkSnapshotDestination(file: string): Promise<void> {
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory() === true) throw new CtlError(`${file} is a directory; give the path of the file to write, such as ${join(file, 'orch.snap')}`);
  if (existing !== undefined && !existing.isFile()) throw new CtlError(`${file} is not a regular file; give the path of the file to write`);
  const parent = dirname(file);
  const parentStat = await stat(parent).catch(() => undefined);
  if (parentStat === undefined) throw new CtlError(`${parent}: no such directory; create it, or give a path in an existing directory`);
  if (!parentStat.isDirectory()) throw new CtlError(`${parent} is not a directory; give a path in an existing directory`);
  try {
    await access(parent, constants.W_OK);
  } catch {
    throw new CtlError(`${parent}: this user may not write there; give a path in a directory you may write to`);
  }
}

const save: CtlSubcommand = {
  name: 'save',
  summary: 'download a consistent copy of the store to a file, verified',
  usage: saveUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('snapshot save', args, { ...connectionOptions, endpoint: { type: 'string' }, output: { type: 'string', short: 'o' } });
    if (printedHelp(parsed, io, saveUsage)) return 0;
    const [fileArg] = requirePositionals('snapshot save', parsed, 1, 1, 'the file to write');
    const format = outputFormat('snapshot save', parsed, ['text', 'json'], 'text');
    const file = resolve(io.cwd, fileArg ?? '');
    const endpoint = stringOption(parsed, 'endpoint');
    await checkSnapshotDestination(file);
    const saved: SavedSnapshot & { source: string } = await withConnection(parsed, io, async (connection) => {
      const { stream, source } = await openDownload(connection, endpoint, io);
      return { ...(await saveSnapshotStream(stream.body, file, source)), source };
    });
    if (format === 'json') io.stdout(formatJson({ file, from: saved.source, header: saved.header }));
    else io.stdout(`saved ${file} from ${saved.source}\n${formatSnapshotHeader(saved.header, saved.fileBytes)}`);
    return 0;
  },
};

/** A snapshot file that could not be read, in one line saying what to give instead. */
function snapshotFileReadError(error: unknown, file: string): CtlError {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return new CtlError(`${file}: no such file; give the path of a file orchctl snapshot save wrote`);
  if (code === 'EISDIR') return new CtlError(`${file} is a directory; give the path of a file orchctl snapshot save wrote`);
  return toCtlError(error);
}

const statusUsage = `Usage: orchctl snapshot status <file> [-o text|json]

Verifies a snapshot file (its magic, format, size and sha256) and prints its header.
`;

const status: CtlSubcommand = {
  name: 'status',
  summary: 'verify a snapshot file and print its header',
  usage: statusUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('snapshot status', args, { output: { type: 'string', short: 'o' } });
    if (printedHelp(parsed, io, statusUsage)) return 0;
    const [fileArg] = requirePositionals('snapshot status', parsed, 1, 1, 'the snapshot file');
    const format = outputFormat('snapshot status', parsed, ['text', 'json'], 'text');
    const file = resolve(io.cwd, fileArg ?? '');
    let header: SnapshotHeader;
    try {
      header = (await verifySnapshotFile(file)).header;
    } catch (error) {
      throw snapshotFileReadError(error, file);
    }
    io.stdout(format === 'json' ? formatJson(header) : `${file}: valid\n${formatSnapshotHeader(header)}`);
    return 0;
  },
};

const restoreUsage = `Usage: orchctl snapshot restore <file> --data-dir DIR --name NAME --peers a=host:port,b=host:port,...

Makes the data directory of one member of a NEW cluster from a snapshot file: the store as it was
at the snapshot's revision (every object keeps its resourceVersion), a Raft log starting at the
snapshot with the membership --peers, and a new cluster id. Restore every member from the same
file with the same --peers (each with its own --name and --data-dir), then start them.
Refuses a file whose magic, format, size or checksum is wrong, and a non-empty data directory.

Flags:
  --data-dir DIR             the member's data directory (missing or empty)
  --name NAME                the member's name: one of --peers
  --peers LIST               every member of the new cluster, name=host:port (peer addresses)
`;

/** The orch-apiserver flags that start a restored member. */
export function restoredStartCommand(name: string, dataDir: string, peers: Readonly<Record<string, string>>): string {
  const peerList = Object.entries(peers).map(([n, a]) => `${n}=${a}`).join(',');
  return `orch-apiserver --name ${name} --data-dir ${dataDir} --peer-address ${peers[name] ?? ''} --peers ${peerList} [--advertise-address host:port and your other flags]`;
}

const restore: CtlSubcommand = {
  name: 'restore',
  summary: 'make a new cluster member\'s data directory from a snapshot file',
  usage: restoreUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('snapshot restore', args, { 'data-dir': { type: 'string' }, name: { type: 'string' }, peers: { type: 'string' } });
    if (printedHelp(parsed, io, restoreUsage)) return 0;
    const [fileArg] = requirePositionals('snapshot restore', parsed, 1, 1, 'the snapshot file');
    const dataDirArg = stringOption(parsed, 'data-dir');
    const name = stringOption(parsed, 'name');
    const peersText = stringOption(parsed, 'peers');
    if (dataDirArg === undefined || name === undefined || peersText === undefined) {
      throw new CtlError('orchctl snapshot restore needs --data-dir, --name and --peers; see orchctl snapshot restore --help', 2);
    }
    const peers = parsePeerList(peersText, 'peers');
    if (!(name in peers)) throw new CtlError(`--name ${name} is not one of --peers (${Object.keys(peers).join(', ')})`, 2);
    const file = resolve(io.cwd, fileArg ?? '');
    const dataDir = resolve(io.cwd, dataDirArg);
    let restored;
    try {
      restored = await restoreDataDir({ snapshotFile: file, dataDir, name, peers });
    } catch (error) {
      throw snapshotFileReadError(error, file);
    }
    io.stdout(
      `restored ${dataDir} from ${file}: revision ${restored.revision}, raft index ${restored.raftIndex}, new cluster id ${restored.clusterId}\n` +
        `start this member with:\n  ${restoredStartCommand(name, dataDir, peers)}\n` +
        `restore every other member from the same file with the same --peers (each its own --name and --data-dir) before starting them\n`,
    );
    return 0;
  },
};

export const snapshotCommand = commandGroup(
  'snapshot',
  'save, check or restore a snapshot of the store',
  'A snapshot file is one header line (ORCH-SNAPSHOT {json}) and the store\'s SQLite database (docs/operations.md).',
  [save, status, restore],
);
