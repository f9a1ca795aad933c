// PEM blocks exactly as Go's encoding/pem Decode reads them, one after another, because a CSR's
// request is judged by kube-apiserver, its approvers and its signer through that function: what
// orch validates, admits and signs must be the block they would see. A block starts with
// `-----BEGIN <type>-----` at the start of a line; "Key: value" header lines may follow; the body
// loses its spaces and tabs and must then be standard base64 with only line breaks besides
// (anything else, a form feed or a non-breaking space, fails the block and the search goes on
// after its BEGIN line); the END line names the same type and nothing but whitespace follows it.
// Text is read one character per byte (latin1).

/** One PEM block. */
export interface PemBlock {
  readonly type: string;
  /** The header lines ("Key: value"), as given. */
  readonly headers: readonly string[];
  readonly der: Uint8Array;
}

const pemStart = '\n-----BEGIN ';
const pemEnd = '\n-----END ';
const pemEndOfLine = '-----';

/** The line at the start of `text` without its trailing spaces, tabs and CR, and the text after its LF (Go's getLine). */
function getLine(text: string): [line: string, rest: string] {
  const lf = text.indexOf('\n');
  const [line, rest] = lf < 0 ? [text, ''] : [text.slice(0, lf), text.slice(lf + 1)];
  return [line.replace(/[ \t\r]+$/, ''), rest];
}

/** Go's base64.StdEncoding.Decode after removeSpacesAndTabs: CR and LF skipped, padding strict; undefined on any other character. */
function decodeBase64(body: string): Uint8Array | undefined {
  const compact = body.replace(/[ \t\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** The first block of `data` and the text after it (Go's pem.Decode), or undefined when there is none. */
export function decodePem(data: string): { block: PemBlock; rest: string } | undefined {
  let rest = data;
  for (;;) {
    if (rest.startsWith(pemStart.slice(1))) rest = rest.slice(pemStart.length - 1);
    else {
      const at = rest.indexOf(pemStart);
      if (at < 0) return undefined;
      rest = rest.slice(at + pemStart.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(pemEndOfLine)) continue;
    const type = typeLine.slice(0, -pemEndOfLine.length);
    const headers: string[] = [];
    for (;;) {
      if (rest === '') return undefined;
      const [line, next] = getLine(rest);
      if (!line.includes(':')) break;
      headers.push(line);
      rest = next;
    }
    // Without headers the END line may come at once, with no line break before it.
    const atOnce = headers.length === 0 && rest.startsWith(pemEnd.slice(1));
    const endIndex = atOnce ? 0 : rest.indexOf(pemEnd);
    if (endIndex < 0) continue;
    const endTrailerIndex = atOnce ? pemEnd.length - 1 : endIndex + pemEnd.length;
    const endTrailer = rest.slice(endTrailerIndex, endTrailerIndex + type.length + pemEndOfLine.length);
    if (endTrailer !== `${type}${pemEndOfLine}`) continue;
    if (getLine(rest.slice(endTrailerIndex + endTrailer.length))[0] !== '') continue;
    const der = decodeBase64(rest.slice(0, endIndex));
    if (der === undefined) continue;
    return { block: { type, headers, der }, rest: getLine(rest.slice(endTrailerIndex))[1] };
  }
}

/** Every block of `text`, in order (pem.Decode over what each leaves). */
export function pemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  let rest = text;
  for (let decoded = decodePem(rest); decoded !== undefined; decoded = decodePem(rest)) {
    out.push(decoded.block);
    rest = decoded.rest;
  }
  return out;
}
