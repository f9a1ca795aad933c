// Varints, the primitive of the Protobuf wire format: their lengths and their writing. Numbers
// are JavaScript numbers (int64 values are safe integers, as orch's JSON keeps them).

/** Strings up to this many UTF-16 units are at most 126 UTF-8 bytes: their length prefix is one byte. */
export const shortStringUnitsMax = 42;

/** The varint length of a non-negative integer (a safe integer), or 10 for a negative one (sign-extended to 64 bits). */
export function varintBytes(value: number): number {
  if (value < 0) return 10;
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  let bytes = 5;
  for (let v = Math.floor(value / 0x800000000); v > 0; v = Math.floor(v / 128)) bytes++;
  return bytes;
}

/** Writes a varint at `pos`; answers the position after it. Negative values are written as 64-bit two's complement. */
export function writeVarint(buf: Buffer, pos: number, value: number): number {
  if (value < 0) return writeNegativeVarint(buf, pos, value);
  let v = value;
  while (v > 0x7fffffff) {
    buf[pos++] = (v & 0x7f) | 0x80; // & keeps the low 7 bits of values past 2^32 too
    v = Math.floor(v / 128);
  }
  while (v > 0x7f) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[pos++] = v;
  return pos;
}

function writeNegativeVarint(buf: Buffer, pos: number, value: number): number {
  let v = BigInt.asUintN(64, BigInt(value));
  for (let i = 0; i < 9; i++) {
    buf[pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  buf[pos++] = Number(v);
  return pos;
}
