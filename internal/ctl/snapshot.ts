// `orchctl snapshot save|status|restore`: copy the store of a running cluster to a file, check a
// file, and make a new cluster's data directories from one (docs/operations.md).
import { resolve } from 'node:path';
import { restoreDataDir } from '../storage/restore-data-dir.ts';
import { verifySnapshotFile, type SnapshotHeader } from '../storage/snapshot-file.ts';
import { outputFormat, parseCommandArgs, parsePeerList, requirePositionals, stringOption, type ParsedArgs } from './args.ts';
import { CtlError, type CtlIo } from './command.ts';
import { connectionOptions, connectionUsage, withConnection, type Connection } from './connection.ts';
import { toCtlError } from './errors.ts';
import { maintenanceRoot } from './maintenance-api.ts';
import { formatBytes, formatJson } from './output.ts';
import { saveSnapshotStream, type SavedSnapshot } from './snapshot-writer.ts';
import { commandGroup, type CtlSubcommand } from './subcommands.ts';
import type { OpenStream } from '../client/client.ts';

/** A download that sends nothing for this long is cut (the replica stalled). */
const downloadSilenceMs = 60_000;

function helpOr(parsed: ParsedArgs, io: CtlIo, usage: string): boolean {
  if (parsed.values['help'] !== true) return false;
  io.stdout(usage);
  return true;
}

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
size and sha256 against the file's header as it writes, syncs it to disk and renames it to <file>.
Prints its revision, raft index, size and sha256. A cut or corrupt download leaves no <file>.

Flags:
  --endpoint URL             the replica to copy from (default: the first that answers)
  -o, --output FORMAT        text (default) or json (the header)
${connectionUsage}
`;

/** Opens the snapshot download on `endpoint`, or on the first replica that answers. */
async function openDownload(connection: Connection, endpoint: string | undefined): Promise<{ stream: OpenStream; source: string }> {
  const candidates = endpoint === undefined ? connection.servers : [endpoint.replace(/\/+$/, '')];
  const failures: string[] = [];
  for (const server of candidates) {
    try {
      const stream = await connection.replicaClient(server).openStream(`${maintenanceRoot}/snapshot`, {}, new Set(), undefined, downloadSilenceMs);
      return { stream, source: server };
    } catch (error) {
      if (endpoint !== undefined) throw error;
      failures.push(`${server}: ${toCtlError(error).message}`);
    }
  }
  throw new CtlError(`no replica sent a snapshot (${failures.join('; ')}); check orchctl status, or pick a replica with --endpoint`);
}

const save: CtlSubcommand = {
  name: 'save',
  summary: 'download a consistent copy of the store to a file, verified',
  usage: saveUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('snapshot save', args, { ...connectionOptions, endpoint: { type: 'string' }, output: { type: 'string', short: 'o' } });
    if (helpOr(parsed, io, saveUsage)) return 0;
    const [fileArg] = requirePositionals('snapshot save', parsed, 1, 1, 'the file to write');
    const format = outputFormat('snapshot save', parsed, ['text', 'json'], 'text');
    const file = resolve(io.cwd, fileArg ?? '');
    const endpoint = stringOption(parsed, 'endpoint');
    const saved: SavedSnapshot & { source: string } = await withConnection(parsed, io, async (connection) => {
      const { stream, source } = await openDownload(connection, endpoint);
      return { ...(await saveSnapshotStream(stream.body, file, source)), source };
    });
    if (format === 'json') io.stdout(formatJson({ file, from: saved.source, header: saved.header }));
    else io.stdout(`saved ${file} from ${saved.source}\n${formatSnapshotHeader(saved.header, saved.fileBytes)}`);
    return 0;
  },
};

const statusUsage = `Usage: orchctl snapshot status <file> [-o text|json]

Verifies a snapshot file (its magic, format, size and sha256) and prints its header.
`;

const status: CtlSubcommand = {
  name: 'status',
  summary: 'verify a snapshot file and print its header',
  usage: statusUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('snapshot status', args, { output: { type: 'string', short: 'o' } });
    if (helpOr(parsed, io, statusUsage)) return 0;
    const [fileArg] = requirePositionals('snapshot status', parsed, 1, 1, 'the snapshot file');
    const format = outputFormat('snapshot status', parsed, ['text', 'json'], 'text');
    const file = resolve(io.cwd, fileArg ?? '');
    let header: SnapshotHeader;
    try {
      header = (await verifySnapshotFile(file)).header;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') throw new CtlError(`${file}: no such file; give the path of a file orchctl snapshot save wrote`);
      throw toCtlError(error);
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
    if (helpOr(parsed, io, restoreUsage)) return 0;
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
      if ((error as { code?: unknown }).code === 'ENOENT') throw new CtlError(`${file}: no such file; give the path of a file orchctl snapshot save wrote`);
      throw toCtlError(error);
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
