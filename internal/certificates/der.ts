// Just enough DER to cut a structure into its elements: the certificates of a concatenation
// (Go's x509.ParseCertificates) and the signed part and signature of a certificate request.

/** One DER element: its tag byte and where its contents start and end in the buffer. */
export interface DerElement {
  readonly tag: number;
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

/** The element at `offset`, or undefined when the bytes there are not a complete definite-length element. */
export function readElement(bytes: Uint8Array, offset: number): DerElement | undefined {
  const tag = bytes[offset];
  const first = bytes[offset + 1];
  if (tag === undefined || first === undefined) return undefined;
  let length = first;
  let contentStart = offset + 2;
  if (first & 0x80) {
    const lengthBytes = first & 0x7f;
    // Indefinite lengths are BER, not DER; four bytes of length is far past any certificate.
    if (lengthBytes === 0 || lengthBytes > 4) return undefined;
    length = 0;
    for (let i = 0; i < lengthBytes; i++) {
      const b = bytes[contentStart + i];
      if (b === undefined) return undefined;
      length = length * 256 + b;
    }
    contentStart += lengthBytes;
  }
  const end = contentStart + length;
  return end <= bytes.length ? { tag, start: offset, contentStart, end } : undefined;
}

/** The elements directly inside `outer` (a SEQUENCE's contents), or undefined when they do not fill it exactly. */
export function childrenOf(bytes: Uint8Array, outer: DerElement): DerElement[] | undefined {
  const out: DerElement[] = [];
  for (let at = outer.contentStart; at < outer.end;) {
    const element = readElement(bytes.subarray(0, outer.end), at);
    if (element === undefined) return undefined;
    out.push(element);
    at = element.end;
  }
  return out;
}
