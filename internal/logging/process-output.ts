// What Node itself would print on stderr as plain text, turned into JSON lines: its warnings
// (deprecations, listener leaks) and a crash's uncaught exception. And the cluster launcher's
// forwarding of its replicas' lines, which stay one JSON object a line.
import { pino } from 'pino';
import type { Logger } from './logger.ts';

/**
 * Routes the process's warnings and uncaught exceptions to `logger` (Node's own printer of
 * warnings is removed). A crash still exits with code 1, as Node's does, after its line.
 */
export function routeProcessOutput(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    logger.warn(warning.message, { warning: warning.name, ...(warning.code === undefined ? {} : { code: warning.code }) });
  });
  process.on('uncaughtException', (err) => {
    logger.pino.fatal({ err }, 'uncaught exception');
    process.exit(1);
  });
}

/** Whether `line` is one JSON object (a replica's log line as it wrote it). */
export function isJsonObjectLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * A sink for the lines of child processes: a JSON object line goes to stderr as it is (it names
 * its replica already); any other line (a child that crashed before it could log) becomes a line
 * of `logger` naming the replica and the stream. `write` is where lines go (default: stderr, synchronously).
 */
export function childLineForwarder(logger: Logger, write?: (line: string) => void): (replica: string, stream: 'stdout' | 'stderr', line: string) => void {
  // By default pino's own synchronous stderr writer (it retries a full pipe), as the logger's lines use.
  const stderr = write ?? sonicWriter();
  return (replica, stream, line) => {
    if (isJsonObjectLine(line)) stderr(`${line}\n`);
    else if (line !== '') logger.info(line, { replica, stream });
  };
}

/** Writes whole lines to stderr through pino's synchronous destination. */
function sonicWriter(): (line: string) => void {
  const destination = pino.destination({ dest: 2, sync: true });
  return (line) => void destination.write(line);
}
