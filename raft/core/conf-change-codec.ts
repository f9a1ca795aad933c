import type { ConfChange, ConfChangeSingle, ConfChangeTransition, ConfChangeType } from './types.ts';

const changeTypes: readonly ConfChangeType[] = ['addVoter', 'addLearner', 'removeNode'];
const transitions: readonly ConfChangeTransition[] = ['auto', 'jointImplicit', 'jointExplicit'];

/**
 * Encodes a ConfChange as the data of a 'confChange' entry. Deterministic: the same change
 * always gives the same bytes (fixed key order, context as hex).
 */
export function encodeConfChange(cc: ConfChange): Uint8Array {
  const body = {
    v: 1,
    t: cc.transition ?? 'auto',
    c: cc.changes.map((ch) => [ch.type, ch.nodeId]),
    x: toHex(cc.context),
  };
  return new TextEncoder().encode(JSON.stringify(body));
}

/** Decodes what encodeConfChange produced; throws an assert-style Error on malformed bytes. */
export function decodeConfChange(data: Uint8Array): ConfChange {
  const body: unknown = JSON.parse(new TextDecoder().decode(data));
  if (typeof body !== 'object' || body === null) throw new Error('assert: conf change is not an object');
  const { v, t, c, x } = body as Record<string, unknown>;
  if (v !== 1) throw new Error(`assert: unknown conf change version ${String(v)}`);
  if (!transitions.includes(t as ConfChangeTransition)) throw new Error(`assert: bad transition ${String(t)}`);
  if (!Array.isArray(c) || typeof x !== 'string') throw new Error('assert: malformed conf change');
  const changes: ConfChangeSingle[] = c.map((pair: unknown) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new Error('assert: malformed conf change item');
    const [type, nodeId] = pair as unknown[];
    if (!changeTypes.includes(type as ConfChangeType) || typeof nodeId !== 'string' || nodeId === '') {
      throw new Error('assert: malformed conf change item');
    }
    return { type: type as ConfChangeType, nodeId };
  });
  const cc: ConfChange = { changes, context: fromHex(x) };
  return t === 'auto' ? cc : { ...cc, transition: t as ConfChangeTransition };
}

function toHex(b: Uint8Array): string {
  let s = '';
  for (const byte of b) s += byte.toString(16).padStart(2, '0');
  return s;
}

function fromHex(s: string): Uint8Array {
  if (s.length % 2 !== 0 || !/^[0-9a-f]*$/.test(s)) throw new Error('assert: bad hex in conf change');
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}
