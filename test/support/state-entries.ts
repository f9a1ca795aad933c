// Log entries for state-machine tests that more than one process must build alike.
import { encodeCommand } from '../../internal/storage/commands.ts';
import type { LogEntry } from '../../internal/storage/sqlite-state-machine.ts';

/** `count` creates of distinct keys `/k/<index>`, at log indexes `first`.. */
export function creates(first: number, count: number): LogEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    index: first + i,
    data: encodeCommand({ op: 'create', requestId: `r${first + i}`, timestampMs: first + i, key: `/k/${first + i}`, value: new Uint8Array([1]) }),
  }));
}
