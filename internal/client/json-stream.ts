// Splits a byte stream into JSON documents, whatever the chunking: documents may be split
// across chunks, several may share a chunk, and they may be separated by newlines or nothing.
// Scanning bytes is safe for UTF-8 because every byte of a multi-byte character is >= 0x80 and
// so never equals a brace, a quote or a backslash.
import { watchDocumentBytesMax } from './limits.ts';

/** An incremental splitter of concatenated / newline-delimited JSON objects. */
export class JsonDocumentSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly documentBytesMax = watchDocumentBytesMax) {}

  /** Feeds one chunk; returns the documents completed by it, parsed, in stream order. Throws on bad JSON. */
  push(chunk: Uint8Array): unknown[] {
    const documents: unknown[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i] as number;
      if (this.depth === 0) {
        if (byte === 0x7b || byte === 0x5b) {
          this.depth = 1;
          start = i;
        } else if (!isWhitespace(byte)) {
          throw new Error(`unexpected byte 0x${byte.toString(16)} between JSON documents`);
        }
        continue;
      }
      if (this.scan(byte)) {
        this.append(chunk.subarray(start, i + 1));
        documents.push(this.take());
      }
    }
    if (this.depth > 0) this.append(chunk.subarray(start));
    return documents;
  }

  /** True when the stream stopped in the middle of a document. */
  hasPartialDocument(): boolean {
    return this.depth > 0;
  }

  /** Advances the scanner over one byte inside a document; true when the document just closed. */
  private scan(byte: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === 0x5c) this.escaped = true;
      else if (byte === 0x22) this.inString = false;
      return false;
    }
    if (byte === 0x22) this.inString = true;
    else if (byte === 0x7b || byte === 0x5b) this.depth += 1;
    else if (byte === 0x7d || byte === 0x5d) this.depth -= 1;
    return this.depth === 0;
  }

  private append(part: Uint8Array): void {
    if (part.length === 0) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.documentBytesMax) throw new Error(`JSON document larger than ${this.documentBytesMax} bytes`);
    this.pending.push(Buffer.from(part));
  }

  private take(): unknown {
    const text = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    return JSON.parse(text) as unknown;
  }
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}
