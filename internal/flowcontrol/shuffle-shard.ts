// Shuffle sharding (kube's shufflesharding.Dealer): a flow's hash deals it a hand of `handSize`
// distinct queues out of `queues`, so that two flows rarely share their whole hand and one heavy
// flow cannot fill every queue another flow could use. The flow's hash is kube's hashFlowID: the
// first 8 bytes (little-endian) of SHA-256 over the schema's name, a separator and the distinguisher.
import { createHash } from 'node:crypto';

/** The 64-bit hash of a flow (its FlowSchema's name and its distinguisher). */
export function flowHash(flowSchemaName: string, flowDistinguisher: string): bigint {
  const digest = createHash('sha256').update(flowSchemaName).update(Buffer.from([0])).update(flowDistinguisher).digest();
  return digest.readBigUInt64LE(0);
}

/**
 * The hand `hash` is dealt: `handSize` distinct queue indices in [0, queues), as kube's Dealer
 * deals them (mixed-radix digits of the hash, each then skipped past the smaller ones before it).
 */
export function dealHand(hash: bigint, queues: number, handSize: number): number[] {
  if (!Number.isSafeInteger(queues) || queues < 1) throw new Error(`assert: a deck of ${queues} queues`);
  const size = Math.max(1, Math.min(handSize, queues));
  const remainders: number[] = [];
  let value = BigInt.asUintN(64, hash);
  for (let i = 0; i < size; i++) {
    const base = BigInt(queues - i);
    remainders.push(Number(value % base));
    value /= base;
  }
  // Each remainder indexes the cards not dealt yet; walking the earlier remainders from the latest
  // back, skip past each one at or below it (kube's order, so a flow gets the hand kube deals it).
  return remainders.map((remainder, i) => {
    let card = remainder;
    for (let j = i; j > 0; j--) if (card >= (remainders[j - 1] as number)) card++;
    return card;
  });
}
