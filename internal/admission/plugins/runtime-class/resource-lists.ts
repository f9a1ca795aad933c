// Comparing resource lists (`{cpu: "250m", memory: "120Mi"}`) as kube's equality.Semantic does:
// quantities by value ("1" equals "1000m"), and an absent list equal to an empty one.
import { compareQuantities, quantityValue } from '../../../registry/schema/quantity-arithmetic.ts';

function entriesOf(list: unknown): [string, unknown][] {
  return typeof list === 'object' && list !== null && !Array.isArray(list) ? Object.entries(list) : [];
}

function sameQuantity(a: unknown, b: unknown): boolean {
  const x = quantityValue(a);
  const y = quantityValue(b);
  if (x === undefined || y === undefined) return a === b;
  return compareQuantities(x, y) === 0;
}

/** Whether two resource lists name the same resources with equal quantities. */
export function sameResourceList(a: unknown, b: unknown): boolean {
  const left = entriesOf(a);
  const right = new Map(entriesOf(b));
  if (left.length !== right.size) return false;
  return left.every(([name, quantity]) => right.has(name) && sameQuantity(quantity, right.get(name)));
}
