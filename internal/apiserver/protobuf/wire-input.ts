// Reading the Protobuf wire format from a body, every read bounded by the end of the message it
// is in: a length or a varint running past it is a truncated body (a 400, as Go's Unmarshal
// returns io.ErrUnexpectedEOF), never a read past the buffer.
import { badRequest } from '../../registry/errors/status-error.ts';

/** A position in a body; `hi` holds the upper 32 bits of the last varint read. */
export class WireInput {
  readonly buf: Buffer;
  pos: number;
  hi = 0;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
  }

  /** A varint's lower 32 bits (unsigned); its upper 32 in `hi`. More than 10 bytes, or past `end`, is a 400. */
  varint(end: number): number {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let pos = this.pos;
    for (let shift = 0; shift < 70; shift += 7) {
      if (pos >= end) throw truncated();
      const byte = buf[pos++] as number;
      if (shift < 28) lo |= (byte & 0x7f) << shift;
      else if (shift === 28) {
        lo |= (byte & 0x0f) << 28;
        hi |= (byte & 0x7f) >>> 4;
      } else hi |= (byte & 0x7f) << (shift - 32);
      if (byte < 0x80) {
        this.pos = pos;
        this.hi = hi >>> 0;
        return lo >>> 0;
      }
    }
    throw badRequest('proto: integer overflow');
  }

  /** A length (of a string, bytes or message) that must fit before `end`. */
  length(end: number): number {
    const length = this.varint(end);
    if (this.hi !== 0 || length > end - this.pos) throw truncated();
    return length;
  }

  /** Reads a length and answers where the value it prefixes ends (within `end`). */
  delimitedEnd(end: number): number {
    const length = this.length(end);
    return this.pos + length;
  }

  /** A varint as a safe integer, two's complement over 64 bits (int64); one past 2^53 is a 400. */
  int64(end: number): number {
    const lo = this.varint(end);
    const hi = this.hi;
    if (hi >= 0x80000000) {
      const value = -((~hi >>> 0) * 0x100000000 + (~lo >>> 0) + 1);
      if (value < Number.MIN_SAFE_INTEGER) throw badRequest(`integer ${value} is out of the range orch stores exactly`);
      return value;
    }
    if (hi > 0x1fffff) throw badRequest(`integer ${BigInt(hi) * 0x100000000n + BigInt(lo)} is out of the range orch stores exactly`);
    return hi * 0x100000000 + lo;
  }

  /** Skips a field of an undeclared number (kube-apiserver ignores them). */
  skip(wireType: number, end: number): void {
    switch (wireType) {
      case 0:
        this.varint(end);
        return;
      case 1:
        this.advance(8, end);
        return;
      case 2: {
        const length = this.length(end); // read before pos: reading the length moves it
        this.pos += length;
        return;
      }
      case 5:
        this.advance(4, end);
        return;
      default:
        throw badRequest(`proto: illegal wireType ${wireType}`);
    }
  }

  advance(bytes: number, end: number): void {
    if (bytes > end - this.pos) throw truncated();
    this.pos += bytes;
  }
}

function truncated(): Error {
  return badRequest('unexpected EOF: the Protobuf body is truncated or a length in it is wrong');
}
