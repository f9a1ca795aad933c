// Structured logs: one JSON object a line on stderr (pino), with klog's `--v=N` verbosity.
//
// Verbosity, as klog's: a line of verbosity N is written when N <= --v. The levels map onto pino's:
//   V(0) info, warn, error  always (--v=0, the default, is quiet: start-up, elections, failures)
//   V(1), V(2)              pino level "info"   (steady-state detail: membership, controller actions)
//   V(3), V(4)              pino level "debug"  (one line per API request, as kube's httplog at --v=3)
//   V(5) and above          pino level "trace"
// Every line carries `time` (ISO 8601), `level` (pino's label), `msg`, the process's `component`
// (and `replica`), `v` when above 0, and `err` (pino's standard serializer) for a failure.
// Nothing logs headers, tokens or object data: callers pass names, codes and counts only.
import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Logger as PinoLogger } from 'pino';

/** Fields of one line: names, codes, counts; never credentials or object data. */
export type LogFields = Readonly<Record<string, unknown>>;

/** The `(message, err?)` shape the layers below take (controllers, admission, registry, Raft glue). */
export type LogFunction = (message: string, err?: unknown) => void;

/** How a process's logger is made. */
export interface LoggerOptions {
  /** The program: orch-apiserver, orch-cluster. */
  readonly component: string;
  /** The replica's name, on every line of a replica. */
  readonly replica?: string;
  /** --v: 0 (default) and up. */
  readonly verbosity: number;
  /** Where lines go (default: stderr, written synchronously so that nothing is lost at exit). */
  readonly destination?: DestinationStream;
}

/** The highest --v klog takes (its Level is an int32); above 5 nothing more is written (orch never logs bodies). */
export const verbosityMax = 2 ** 31 - 1;

/** Parses `--v` as klog does: any non-negative integer. Throws an Error naming the flag otherwise. */
export function parseVerbosity(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = /^\+?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n > verbosityMax) throw new Error(`--v: "${text}" is not a verbosity (a non-negative integer)`);
  return n;
}

/** The pino level a line of verbosity `v` is written at. */
export function levelOfVerbosity(v: number): 'info' | 'debug' | 'trace' {
  return v <= 2 ? 'info' : v <= 4 ? 'debug' : 'trace';
}

/** An error as a serializable value: pino's serializer for an Error, its text for anything else (never an object's fields). */
function serializedError(err: unknown): unknown {
  return err instanceof Error ? stdSerializers.err(err) : { message: String(err) };
}

/** A process's logger: pino underneath, gated by klog's verbosity. */
export class Logger {
  private constructor(
    /** The pino logger (for callers that need its API; its level already follows --v). */
    readonly pino: PinoLogger,
    /** --v. */
    readonly verbosity: number,
  ) {}

  /** A logger writing JSON lines as `options` say. */
  static create(options: LoggerOptions): Logger {
    const base = { component: options.component, ...(options.replica === undefined ? {} : { replica: options.replica }) };
    const destination = options.destination ?? pino.destination({ dest: 2, sync: true });
    const instance = pino({
      level: levelOfVerbosity(options.verbosity),
      base,
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializedError },
    }, destination);
    return new Logger(instance, options.verbosity);
  }

  /** Whether a line of verbosity `v` is written: test it before building an expensive line. */
  enabled(v: number): boolean {
    return v <= this.verbosity;
  }

  /** A V(0) line. */
  info(msg: string, fields?: LogFields): void {
    this.pino.info(fields ?? {}, msg);
  }

  /** A line of verbosity `v` (klog's `V(v).InfoS`), written only when `v <= --v`. */
  v(v: number, msg: string, fields?: LogFields): void {
    if (v > this.verbosity) return;
    this.pino[levelOfVerbosity(v)]({ ...fields, ...(v > 0 ? { v } : {}) }, msg);
  }

  /** Something wrong that the process goes on through. */
  warn(msg: string, fields?: LogFields): void {
    this.pino.warn(fields ?? {}, msg);
  }

  /** A failure, with the error when there is one. */
  error(msg: string, err?: unknown, fields?: LogFields): void {
    this.pino.error(err === undefined ? (fields ?? {}) : { ...fields, err }, msg);
  }

  /** A logger whose lines all carry `bindings` too. */
  child(bindings: LogFields): Logger {
    return new Logger(this.pino.child(bindings), this.verbosity);
  }

  /**
   * The `(message, err?)` shape the layers below take: a V(0) info line, or an error line with
   * the error serialized. Bound: pass it around as a plain function.
   */
  readonly legacy: LogFunction = (message, err) => {
    if (err === undefined) this.info(message);
    else this.error(message, err);
  };
}
