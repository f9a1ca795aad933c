// orchctl's top level: finds the command in the arguments (connection flags may come before it),
// runs it, and turns any failure into one `error: ...` line and an exit code (1, or 2 for usage).
import { applyCommand } from './apply.ts';
import { nameIndex, withoutName } from './args.ts';
import { certsCommand } from './certs.ts';
import { CtlError, type CtlCommand, type CtlIo } from './command.ts';
import { deleteCommand } from './delete.ts';
import { toCtlError } from './errors.ts';
import { getCommand } from './get.ts';
import { leaderCommand } from './leader.ts';
import { memberCommand } from './member.ts';
import { snapshotCommand } from './snapshot.ts';
import { statusCommand } from './status.ts';
import { watchCommand } from './watch.ts';

/** Every command, in the order `orchctl --help` lists them. */
export const commands: readonly CtlCommand[] = [
  statusCommand, memberCommand, leaderCommand, snapshotCommand, certsCommand, getCommand, applyCommand, deleteCommand, watchCommand,
];

/** The text of `orchctl --help`. */
export function topUsage(all: readonly CtlCommand[]): string {
  const width = Math.max(...all.map((c) => c.name.length));
  return `orchctl operates an orch cluster: replicas, membership, snapshots, and objects.

Usage: orchctl [connection flags] <command> [flags]

Commands:
${all.map((c) => `  ${c.name.padEnd(width)}   ${c.summary}`).join('\n')}

Connection flags (any command that talks to the cluster): --kubeconfig FILE, --context NAME,
--endpoints URL,URL, --request-timeout D. Run orchctl <command> --help for each command's flags.
`;
}

/** Where the command's name is in `argv`: after any leading connection flags. */
export const commandIndex = nameIndex;

async function dispatch(argv: readonly string[], io: CtlIo, all: readonly CtlCommand[]): Promise<number> {
  const index = commandIndex(argv);
  const name = index < 0 ? undefined : argv[index];
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(topUsage(all));
    return name === undefined ? 2 : 0;
  }
  const command = all.find((c) => c.name === name);
  if (command === undefined) {
    const what = name.startsWith('-') ? `unknown flag ${name} before the command` : `unknown command "${name}"`;
    throw new CtlError(`${what}; see orchctl --help for the commands`, 2);
  }
  return command.run(withoutName(argv, index), io);
}

/** Runs orchctl with `argv` (the arguments after the program name); returns the exit code. */
export async function runOrchctl(argv: readonly string[], io: CtlIo, all: readonly CtlCommand[] = commands): Promise<number> {
  try {
    return await dispatch(argv, io, all);
  } catch (error) {
    const failure = toCtlError(error);
    io.stderr(`error: ${failure.message}\n`);
    return failure.exitCode;
  }
}
