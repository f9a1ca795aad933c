// What every orchctl command is: a name, a one-line summary, its --help text, and a run function
// that writes to the io it is given (tests run commands in-process) and returns the exit code.

/** Where a command writes, and what it reads from its environment. */
export interface CtlIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** One orchctl command (`status`, `member`, `snapshot`, `leader`, `get`, `certs`, ...). */
export interface CtlCommand {
  readonly name: string;
  /** One line for `orchctl --help`. */
  readonly summary: string;
  /** The whole `orchctl <name> --help` text. */
  readonly usage: string;
  /** Runs with the arguments after the command's name; returns the process exit code. */
  run(args: readonly string[], io: CtlIo): Promise<number>;
}

/**
 * A failure a person acts on: its message is one line that says what went wrong and what to do
 * (`orchctl` prints `error: <message>` and exits 1; usage mistakes exit 2).
 */
export class CtlError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CtlError';
  }
}
