// `orchctl leader transfer <name>`: hand Raft leadership to another voter (before restarting the
// leader's machine, say).
import { parseCommandArgs, printedHelp, requirePositionals } from './args.ts';
import { connectionOptions, connectionUsage, withConnection } from './connection.ts';
import { transferLeader } from './maintenance-api.ts';
import { commandGroup, type CtlSubcommand } from './subcommands.ts';

const transferUsage = `Usage: orchctl leader transfer <name> [connection flags]

Hands leadership to the voter <name> and waits until it leads (the leader answers 504 if it does
not in time).

${connectionUsage}
`;

const transfer: CtlSubcommand = {
  name: 'transfer',
  summary: 'hand leadership to another voter',
  usage: transferUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('leader transfer', args, connectionOptions);
    if (printedHelp(parsed, io, transferUsage)) return 0;
    const [target] = requirePositionals('leader transfer', parsed, 1, 1, 'the name of the voter to hand leadership to');
    const answer = await withConnection(parsed, io, (c) => transferLeader(c.client(), target ?? '', c.requestSignal()), {
      404: 'orchctl member list shows the members',
      400: 'leadership goes to a voter: orchctl member list shows each member\'s role (orchctl member promote makes a caught-up learner a voter)',
    });
    io.stdout(`leader: ${answer.leader}\n`);
    return 0;
  },
};

export const leaderCommand = commandGroup('leader', 'hand Raft leadership to another voter', 'Leadership changes go to the current leader.', [transfer]);
