// Writes a watch's lines (JSON) or frames (Protobuf) to its response only as fast as the client takes them.
import type { RawResponse } from '../respond.ts';

/**
 * The most bytes written at once: a larger line goes out in pieces, so that each wait for 'drain'
 * measures the client's progress over one piece, not over a whole object of up to 1.5 MiB.
 */
export const watchWritePieceBytes = 64 * 1024;

/**
 * Writes lines or frames to `raw`, waiting after any write the connection did not take whole until the client
 * has taken it ('drain'). A write fails (the client is to be dropped) when `giveUp` settles during
 * such a wait, or when the client takes nothing for `stallMs`.
 */
export class WatchWriter {
  private givenUp = false;
  private stopWaiting: (() => void) | null = null;

  constructor(
    private readonly raw: RawResponse,
    giveUp: Promise<void>,
    private readonly stallMs: number,
  ) {
    // One listener for the whole watch, not one per wait.
    void giveUp.then(() => {
      this.givenUp = true;
      this.stopWaiting?.();
    });
  }

  /** Writes one line or frame; false when the client is to be dropped. */
  async write(line: string | Buffer): Promise<boolean> {
    const bytes = typeof line === 'string' ? Buffer.from(line) : line;
    for (let start = 0; start < bytes.length;) {
      const end = pieceEnd(bytes, start);
      const taken = this.raw.write(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
      start = end;
      if (!taken && !(await this.drained())) return false;
    }
    return true;
  }

  /** Whether the client took what was buffered (false: given up, or stalled for `stallMs`). */
  private drained(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (this.givenUp) return resolve(false);
      const onDrain = (): void => {
        this.stopWaiting = null;
        clearTimeout(stalled);
        resolve(true);
      };
      this.raw.once('drain', onDrain);
      this.stopWaiting = () => {
        this.stopWaiting = null;
        clearTimeout(stalled);
        this.raw.off('drain', onDrain);
        resolve(false);
      };
      const stalled = setTimeout(() => this.stopWaiting?.(), this.stallMs);
    });
  }
}

/** Utmost continuation bytes (10xxxxxx) after a UTF-8 lead byte. */
const utf8ContinuationBytesMax = 3;

/**
 * Where the piece starting at `start` ends: at most watchWritePieceBytes on, never inside a UTF-8
 * character of a JSON line. A character has at most 3 continuation bytes, so the end moves back
 * at most that far: a Protobuf frame's binary bytes, which may run on as 10xxxxxx for any length,
 * still make progress.
 */
function pieceEnd(bytes: Buffer, start: number): number {
  const limit = Math.min(start + watchWritePieceBytes, bytes.length);
  let end = limit;
  // A continuation byte belongs to the character before it: a client decoding each piece gets whole characters.
  while (end < bytes.length && limit - end < utf8ContinuationBytesMax && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}
