// The growing buffer the message writer writes into, in one pass: a nested message's length is
// not known before its fields are written, so one byte is kept for it and, when the message is
// 128 bytes or more, its bytes are moved up to make room for the longer varint. Moving bytes
// (memmove, a few times the output's size in all) is far cheaper than a second walk of the
// object to measure it first, as Go's Size-then-Marshal does.
import { outputScratchBytesMax } from './limits.ts';
import { shortStringUnitsMax, varintBytes, writeVarint } from './wire-bytes.ts';

/** A buffer kept between calls (encoding is synchronous); larger ones are let go after use. */
let scratch: Buffer | undefined;

/** Where one encoding is being written. `buf` may be replaced as it grows: read it after `reserve`. */
export class WireOutput {
  buf: Buffer;
  pos = 0;

  constructor() {
    this.buf = scratch ?? Buffer.allocUnsafe(64 * 1024);
    scratch = undefined; // a re-entrant encoding (none today) gets its own
  }

  /** Makes room for `bytes` more bytes at `pos`. */
  reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  byte(value: number): void {
    this.reserve(1);
    this.buf[this.pos++] = value;
  }

  varint(value: number): void {
    this.reserve(10);
    this.pos = writeVarint(this.buf, this.pos, value);
  }

  /** A length-prefixed UTF-8 string. */
  string(text: string): void {
    this.reserve(5 + text.length * 3);
    const buf = this.buf;
    const start = this.pos;
    if (text.length <= shortStringUnitsMax) {
      let at = start + 1;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) {
          at = -1; // not ASCII: let Buffer encode it
          break;
        }
        buf[at++] = c;
      }
      if (at >= 0) {
        buf[start] = at - start - 1;
        this.pos = at;
        return;
      }
    }
    this.pos = start + 1;
    this.pos += buf.write(text, this.pos, 'utf8');
    this.endDelimited(start);
  }

  /** Length-prefixed bytes. */
  bytes(value: Uint8Array): void {
    this.reserve(10 + value.length);
    this.pos = writeVarint(this.buf, this.pos, value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  double(value: number): void {
    this.reserve(8);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }

  /** Starts a length-delimited value (a nested message); answers where its length goes, for endDelimited. */
  beginDelimited(): number {
    this.reserve(1);
    return this.pos++;
  }

  /** Ends what beginDelimited began: writes its length, moving its bytes up if the length needs more than one byte. */
  endDelimited(lengthAt: number): void {
    const length = this.pos - lengthAt - 1;
    if (length < 0x80) {
      this.buf[lengthAt] = length;
      return;
    }
    const extra = varintBytes(length) - 1;
    this.reserve(extra);
    this.buf.copyWithin(lengthAt + 1 + extra, lengthAt + 1, this.pos);
    this.pos += extra;
    writeVarint(this.buf, lengthAt, length);
  }

  /** The bytes written, in a Buffer of their own; the working buffer is kept for the next encoding if small. */
  finish(): Buffer {
    // A large encoding (a long list) outgrew the scratch: hand its buffer over when at least half is used.
    if (this.buf.length > outputScratchBytesMax && this.pos * 2 >= this.buf.length) return this.buf.subarray(0, this.pos);
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    if (this.buf.length <= outputScratchBytesMax) scratch = this.buf;
    return out;
  }
}
