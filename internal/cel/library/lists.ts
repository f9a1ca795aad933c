// Kubernetes' list library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, sum, min,
// max, indexOf and lastIndexOf as member functions of lists. Kube declares one overload per
// element type; @bufbuild/cel types lists as list(dyn) at run time, so each function is one
// overload that checks its elements the way the typed overloads would have.
import { celMethod, celError, listType, CelScalar, type CelFunc, type CelList, type CelValue } from '@bufbuild/cel';
import { addValues, compareValues, isComparable, isSummable } from './compare.ts';
import { equalValues } from './equality.ts';

const list = listType(CelScalar.DYN);

function elements(values: CelList): CelValue[] {
  return [...values];
}

function requireComparable(value: CelValue): void {
  if (!isComparable(value)) throw celError('no such overload');
}

function isSorted(this: CelList): boolean {
  let previous: CelValue | undefined;
  for (const next of elements(this)) {
    requireComparable(next);
    if (previous !== undefined && compareValues(previous, next) > 0) return false;
    previous = next;
  }
  return true;
}

/** An empty list sums to int 0, as kube's first (int) overload gives for an untyped `[]`. */
function sum(this: CelList): CelValue {
  let total: CelValue | undefined;
  for (const next of elements(this)) {
    if (!isSummable(next)) throw celError('no such overload');
    total = total === undefined ? next : addValues(total, next);
  }
  return total ?? 0n;
}

function extreme(name: 'min' | 'max', prefer: number) {
  return function (this: CelList): CelValue {
    let result: CelValue | undefined;
    for (const next of elements(this)) {
      requireComparable(next);
      if (result === undefined || compareValues(result, next) === prefer) result = next;
    }
    if (result === undefined) throw celError(`${name} called on empty list`);
    return result;
  };
}

function indexOf(this: CelList, item: CelValue): bigint {
  const values = elements(this);
  for (let i = 0; i < values.length; i++) if (equalValues(values[i] as CelValue, item)) return BigInt(i);
  return -1n;
}

function lastIndexOf(this: CelList, item: CelValue): bigint {
  const values = elements(this);
  for (let i = values.length - 1; i >= 0; i--) if (equalValues(values[i] as CelValue, item)) return BigInt(i);
  return -1n;
}


/** The list library's functions. */
export const listsLibrary: readonly CelFunc[] = [
  celMethod('isSorted', list, [], CelScalar.BOOL, isSorted),
  celMethod('sum', list, [], CelScalar.DYN, sum),
  celMethod('min', list, [], CelScalar.DYN, extreme('min', 1)),
  celMethod('max', list, [], CelScalar.DYN, extreme('max', -1)),
  celMethod('indexOf', list, [CelScalar.DYN], CelScalar.INT, indexOf),
  celMethod('lastIndexOf', list, [CelScalar.DYN], CelScalar.INT, lastIndexOf),
];
