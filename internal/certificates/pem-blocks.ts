// PEM blocks as Go's encoding/pem reads them one after another: text around and between blocks
// is skipped, a block whose body is not base64 is passed over, headers ("Key: value" lines
// before the body) are kept apart so a caller can refuse them.

/** One PEM block. */
export interface PemBlock {
  readonly type: string;
  readonly headers: readonly string[];
  readonly der: Uint8Array;
}

const blockPattern = /-----BEGIN ([^\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
const base64Body = /^[A-Za-z0-9+/=\s]*$/;

/** Every well-formed PEM block of `text`, in order. */
export function pemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  for (const match of text.matchAll(blockPattern)) {
    const lines = (match[2] ?? '').split(/\r?\n/);
    let bodyStart = 0;
    while (bodyStart < lines.length && (lines[bodyStart] ?? '').includes(':')) bodyStart++;
    const headers = lines.slice(0, bodyStart);
    const body = lines.slice(bodyStart).join('');
    if (!base64Body.test(body)) continue;
    out.push({ type: match[1] ?? '', headers, der: new Uint8Array(Buffer.from(body, 'base64')) });
  }
  return out;
}
