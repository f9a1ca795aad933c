// `orchctl member list|add|remove|promote`: the Raft membership, through the leader.
import { ApiError } from '../client/errors.ts';
import { booleanOption, outputFormat, parseCommandArgs, parseDurationMs, parseHostPort, printedHelp, requirePositionals, stringOption, type ParsedArgs } from './args.ts';
import { CtlError, type CtlIo } from './command.ts';
import { connectionOptions, connectionUsage, withConnection, type Connection } from './connection.ts';
import type { ApiHints } from './errors.ts';
import { addMember, getMembers, promoteMember, removeMember, type Member, type MembersView } from './maintenance-api.ts';
import { cellText, formatJson, formatTable } from './output.ts';
import { commandGroup, type CtlSubcommand } from './subcommands.ts';

/** How often `member add` asks again to promote a learner that is still behind. */
const promoteRetryMs = 1000;

/** What to do about the answers of the calls naming a member. */
export const memberHints: ApiHints = {
  404: 'orchctl member list shows the members',
  400: 'orchctl member list shows each member\'s role',
  409: 'orchctl member list shows the membership as it is now',
};

/** Parses a subcommand's flags; prints its usage and returns null for --help. */
function parseOrHelp(command: string, args: readonly string[], io: CtlIo, usage: string, options: Parameters<typeof parseCommandArgs>[2] = {}): ParsedArgs | null {
  const parsed = parseCommandArgs(command, args, { ...connectionOptions, ...options });
  return printedHelp(parsed, io, usage) ? null : parsed;
}

/** The members table: leader first marked, lag and match index when the leader answered. */
export function formatMembers(view: MembersView): string {
  const rows = view.members.map((m) => [m.name, m.role, m.peerAddress, cellText(m.matchIndex), cellText(m.lag), m.name === view.leader ? 'yes' : '']);
  return formatTable(['name', 'role', 'peer address', 'match index', 'lag', 'leader'], rows);
}

const listUsage = `Usage: orchctl member list [-o table|json] [connection flags]

Lists the members of the Raft group: name, role (voter or learner), peer address, and as the
leader sees them their match index and lag (entries behind the leader's last).

Flags:
  -o, --output FORMAT        table (default) or json
${connectionUsage}
`;

const list: CtlSubcommand = {
  name: 'list',
  summary: 'list the members (name, role, peer address, lag)',
  usage: listUsage,
  async run(args, io) {
    const parsed = parseOrHelp('member list', args, io, listUsage, { output: { type: 'string', short: 'o' } });
    if (parsed === null) return 0;
    requirePositionals('member list', parsed, 0, 0, 'no arguments');
    const format = outputFormat('member list', parsed, ['table', 'json'], 'table');
    const view = await withConnection(parsed, io, (c) => membersFromLeader(c));
    io.stdout(format === 'json' ? formatJson(view) : formatMembers(view));
    return 0;
  },
};

/** The membership as the leader sees it (with lags) when a replica names a leader that answers; else any replica's view. */
async function membersFromLeader(connection: Connection): Promise<MembersView> {
  const anyView = await getMembers(connection.client(), connection.requestSignal());
  if (anyView.members.some((m) => m.lag !== undefined)) return anyView;
  for (const server of connection.servers) {
    try {
      const view = await getMembers(connection.replicaClient(server), connection.requestSignal());
      if (view.members.some((m) => m.lag !== undefined)) return view;
    } catch {
      continue;
    }
  }
  return anyView;
}

const addUsage = `Usage: orchctl member add <name> --peer-address host:port [--learner] [--wait-timeout 5m] [connection flags]

Adds a replica to the Raft group as a learner (it receives the log but does not vote), then,
unless --learner is given, waits for it to catch up and promotes it to a voter. Start the new
replica first, with an empty data directory and --initial-cluster-state existing.

Flags:
  --peer-address host:port   where the other members reach its peer port (required)
  --learner                  stop after adding it as a learner (promote later: orchctl member promote)
  --wait-timeout D           how long to wait for it to catch up (default 5m)
${connectionUsage}
`;

/** Promotes `name`, asking again while the leader answers 409 (still behind), until `deadlineMs`. */
async function promoteWhenCaughtUp(connection: Connection, name: string, deadlineMs: number, io: CtlIo, waitText: string): Promise<Member> {
  let lastNote = '';
  for (;;) {
    try {
      return await promoteMember(connection.client(), name, connection.requestSignal());
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      if (Date.now() + promoteRetryMs > deadlineMs) {
        throw new CtlError(`${name} was added as a learner but did not catch up within ${waitText} (${error.message}); check that it runs, then orchctl member promote ${name}`);
      }
      if (error.message !== lastNote) io.stderr(`waiting: ${error.message}\n`);
      lastNote = error.message;
      await new Promise((r) => setTimeout(r, promoteRetryMs));
    }
  }
}

const add: CtlSubcommand = {
  name: 'add',
  summary: 'add a member as a learner, wait for it to catch up, promote it',
  usage: addUsage,
  async run(args, io) {
    const parsed = parseOrHelp('member add', args, io, addUsage, {
      'peer-address': { type: 'string' }, learner: { type: 'boolean' }, 'wait-timeout': { type: 'string' },
    });
    if (parsed === null) return 0;
    const [name] = requirePositionals('member add', parsed, 1, 1, 'the name of the member to add');
    const peerAddressText = stringOption(parsed, 'peer-address');
    if (peerAddressText === undefined) throw new CtlError('orchctl member add needs --peer-address host:port; see orchctl member add --help', 2);
    const peerAddress = parseHostPort(peerAddressText, 'peer-address');
    const waitText = stringOption(parsed, 'wait-timeout') ?? '5m';
    const waitMs = parseDurationMs(waitText, 'wait-timeout');
    const learnerOnly = booleanOption(parsed, 'learner');
    await withConnection(parsed, io, async (connection) => {
      const member = name ?? '';
      try {
        const added = await addMember(connection.client(), { name: member, peerAddress }, connection.requestSignal());
        io.stdout(`member ${added.name} added as a learner (peer address ${added.peerAddress})\n`);
      } catch (error) {
        // A rerun after a wait that timed out: the learner is there already, go on to promote it.
        if (learnerOnly || !(error instanceof ApiError) || error.status !== 409) throw error;
        io.stderr(`${error.message}; promoting it when it has caught up\n`);
      }
      if (learnerOnly) return;
      const promoted = await promoteWhenCaughtUp(connection, member, Date.now() + waitMs, io, waitText);
      io.stdout(`member ${promoted.name} promoted to ${promoted.role}\n`);
    });
    return 0;
  },
};

const removeUsage = `Usage: orchctl member remove <name> [connection flags]

Removes a member (running or dead) from the Raft group. The last voter cannot be removed. Stop the
removed replica afterwards; its data directory cannot rejoin.

${connectionUsage}
`;

const remove: CtlSubcommand = {
  name: 'remove',
  summary: 'remove a member from the group',
  usage: removeUsage,
  async run(args, io) {
    const parsed = parseOrHelp('member remove', args, io, removeUsage);
    if (parsed === null) return 0;
    const [name] = requirePositionals('member remove', parsed, 1, 1, 'the name of the member to remove');
    const answer = await withConnection(parsed, io, (c) => removeMember(c.client(), name ?? '', c.requestSignal()), memberHints);
    io.stdout(`member ${answer.removed} removed\n`);
    return 0;
  },
};

const promoteUsage = `Usage: orchctl member promote <name> [connection flags]

Makes a learner that has caught up with the leader a voter. Answers an error, saying by how many
entries, while it is still behind.

${connectionUsage}
`;

const promote: CtlSubcommand = {
  name: 'promote',
  summary: 'make a caught-up learner a voter',
  usage: promoteUsage,
  async run(args, io) {
    const parsed = parseOrHelp('member promote', args, io, promoteUsage);
    if (parsed === null) return 0;
    const [name] = requirePositionals('member promote', parsed, 1, 1, 'the name of the learner to promote');
    const member = await withConnection(parsed, io, (c) => promoteMember(c.client(), name ?? '', c.requestSignal()), memberHints);
    io.stdout(`member ${member.name} promoted to ${member.role}\n`);
    return 0;
  },
};

export const memberCommand = commandGroup(
  'member',
  'list, add, remove or promote members of the Raft group',
  'Changes to the membership go to the Raft leader (a follower refuses them; orchctl retries on another replica).',
  [list, add, remove, promote],
);
