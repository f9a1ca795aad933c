// Commands made of subcommands (`member add`, `snapshot save`): the group's --help lists them,
// each subcommand has its own --help.
import { nameIndex, withoutName } from './args.ts';
import { CtlError, type CtlCommand, type CtlIo } from './command.ts';

/** A subcommand: like a command, named within its group. */
export type CtlSubcommand = CtlCommand;

/** The --help text of a group: its description, then its subcommands. */
export function groupUsage(group: string, description: string, subcommands: readonly CtlSubcommand[]): string {
  const width = Math.max(...subcommands.map((s) => s.name.length));
  const lines = subcommands.map((s) => `  ${s.name.padEnd(width)}   ${s.summary}`);
  return `Usage: orchctl ${group} <subcommand> [flags]\n\n${description}\n\nSubcommands:\n${lines.join('\n')}\n\nRun orchctl ${group} <subcommand> --help for its flags.\n`;
}

/** A command that dispatches to its subcommands. */
export function commandGroup(name: string, summary: string, description: string, subcommands: readonly CtlSubcommand[]): CtlCommand {
  const usage = groupUsage(name, description, subcommands);
  return {
    name,
    summary,
    usage,
    async run(args: readonly string[], io: CtlIo): Promise<number> {
      // Connection flags may come between the group's name and the subcommand's.
      const index = nameIndex(args);
      const first = index < 0 ? undefined : args[index];
      if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
        io.stdout(usage);
        return first === undefined ? 2 : 0;
      }
      const subcommand = subcommands.find((s) => s.name === first);
      if (subcommand === undefined) {
        throw new CtlError(`orchctl ${name}: unknown subcommand "${first}" (one of ${subcommands.map((s) => s.name).join(', ')}); see orchctl ${name} --help`, 2);
      }
      return subcommand.run(withoutName(args, index), io);
    },
  };
}
