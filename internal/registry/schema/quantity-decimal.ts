// Exact decimal arithmetic on digit strings for quantities: what Go does with inf.Dec and
// big.Int, in time linear in the digits (a BigInt of a million digits takes a tenth of a second
// to parse, and a quantity's text may be megabytes long).

/** A decimal number: `digits` (no leading zeros, "0" for zero) times 10^`exponent`, with its sign. */
export interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

/** `amount` with its trailing zero digits moved into the exponent (zero stays "0"). */
export function stripTrailingZeros(amount: Decimal): Decimal {
  if (amount.digits === '0') return amount;
  const kept = amount.digits.replace(/0+$/, '');
  return { ...amount, digits: kept, exponent: amount.exponent + amount.digits.length - kept.length };
}

/** `amount` with its exponent lowered to the multiple of 3 at or below it (as Go's AsCanonicalBytes). */
export function decimalExponentOf(amount: Decimal): Decimal {
  const over = ((amount.exponent % 3) + 3) % 3;
  return over === 0 ? amount : { ...amount, digits: amount.digits + '0'.repeat(over), exponent: amount.exponent - over };
}

/** The decimal digit string plus one. */
export function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1);
}

const limbDigits = 7;
const limbBase = 10 ** limbDigits;
/** Bits multiplied in at once: a limb (< 10^7) times 2^20 plus a carry stays an exact double. */
const bitsPerPass = 20;

/** `amount` times 2^`bits` (bits ≥ 0), exact: the digits in base-10^7 limbs, multiplied a few bits a pass. */
export function multiplyByPowerOfTwo(amount: Decimal, bits: number): Decimal {
  if (amount.digits === '0' || bits === 0) return amount;
  const limbs: number[] = [];
  for (let end = amount.digits.length; end > 0; end -= limbDigits) limbs.push(Number(amount.digits.slice(Math.max(0, end - limbDigits), end)));
  for (let left = bits; left > 0; left -= bitsPerPass) {
    const factor = 2 ** Math.min(left, bitsPerPass);
    let carry = 0;
    for (let i = 0; i < limbs.length; i++) {
      const product = (limbs[i] as number) * factor + carry;
      limbs[i] = product % limbBase;
      carry = Math.floor(product / limbBase);
    }
    while (carry > 0) {
      limbs.push(carry % limbBase);
      carry = Math.floor(carry / limbBase);
    }
  }
  const text = limbs.reverse().map((limb, i) => (i === 0 ? String(limb) : String(limb).padStart(limbDigits, '0'))).join('');
  return { ...amount, digits: text };
}
