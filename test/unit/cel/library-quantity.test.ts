// Kubernetes' quantity library (in kube 1.28's base environment): each example from
// quantity.go's documentation, then apimachinery's int64-versus-decimal quirks that decide
// isInteger, and the errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, isCelError, type CelValue } from '@bufbuild/cel';
import { kubernetesLibraries } from '../../../internal/cel/library/index.ts';

function evaluate(expression: string): CelValue | Error {
  return run(expression, {}, { funcs: [...kubernetesLibraries] });
}

const formatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const documented: readonly (readonly [string, unknown])[] = [
  ["type(quantity('1.5G')) == type(quantity('200k'))", true],
  ["isQuantity('1.3G')", true],
  ["isQuantity('1.3Gi')", true],
  ["isQuantity('1,3G')", false],
  ["isQuantity('10000k')", true],
  ["isQuantity('200K')", false],
  ["isQuantity('Three')", false],
  ['quantity("50000000G").isInteger()', true],
  ['quantity("50k").isInteger()', true],
  ['quantity("9999999999999999999999999999999999999G").isInteger()', false],
  ['quantity("50k").asInteger() == 50000', true],
  ['quantity("50k").sub(20000).asApproximateFloat() == 30000.0', true],
  ['quantity("50k").add(quantity("20k")) == quantity("70k")', true],
  ['quantity("50k").add(20) == quantity("50020")', true],
  ['quantity("50k").sub(quantity("20k")) == quantity("30k")', true],
  ['quantity("50k").sub(20000) == quantity("30k")', true],
  ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")', true],
  ['quantity("200M").compareTo(quantity("0.2G"))', 0n],
  ['quantity("50M").compareTo(quantity("50Mi"))', -1n],
  ['quantity("50Mi").compareTo(quantity("50M"))', 1n],
  ['quantity("150Mi").isGreaterThan(quantity("100Mi"))', true],
  ['quantity("50Mi").isGreaterThan(quantity("100Mi"))', false],
  ['quantity("50M").isLessThan(quantity("100M"))', true],
  ['quantity("100M").isLessThan(quantity("50M"))', false],
];

test('quantity library: documented examples give the documented results', () => {
  for (const [expression, expected] of documented) assert.deepEqual(evaluate(expression), expected, expression);
});

test('quantity library: a bare suffix is zero, as apimachinery parses it (documented as an error)', () => {
  // ParseQuantity reads no digits as "0", so 'Mi' is a zero quantity; kube's doc comment says error.
  assert.equal(evaluate("isQuantity('Mi')"), true);
  assert.equal(evaluate("quantity('Mi').sign()"), 0n);
});

test('quantity library: kube\'s own test cases', () => {
  for (const [expression, expected] of [
    ['quantity("50k").add(quantity("20")) == quantity("50.02k")', true],
    ['quantity("50k").add(20).isLessThan(quantity("50020"))', false],
    ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', true],
    ['quantity("50k").sub(20) == quantity("49980")', true],
    ['quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980n],
    ['quantity("50.703k").asApproximateFloat()', 50703],
    ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M")', true],
    ['quantity("200M") == quantity("0.3G")', false],
    ['quantity("50").isInteger()', true],
    ['isQuantity("10Mm")', false],
    ['isQuantity("20Mo")', false],
  ] as const) {
    assert.deepEqual(evaluate(expression), expected, expression);
  }
});

test('quantity library: quantity() of a bad text is apimachinery\'s parse error', () => {
  for (const [text, message] of [
    ['200K', "unable to parse quantity's suffix"],
    ['10Mm', "unable to parse quantity's suffix"],
    ['10Mo', formatWrong],
    ['Three', formatWrong],
    [' 1', formatWrong],
  ] as const) {
    const result = evaluate(`quantity('${text}')`);
    assert.ok(isCelError(result), text);
    assert.equal(result.message, message, text);
  }
});

test('quantity library: asInteger errors where apimachinery\'s AsInt64 fails', () => {
  const big = evaluate('quantity("9999999999999999999999999999999999999G").asInteger()');
  assert.ok(isCelError(big) && big.message === 'cannot convert value to integer');
  // An int64 amount with a negative scale is not an integer, even when its value is whole.
  assert.equal(evaluate('quantity("1.0").isInteger()'), false);
  assert.equal(evaluate('quantity("1000m").isInteger()'), false);
  assert.equal(evaluate('quantity("1.5").isInteger()'), false);
  assert.equal(evaluate('quantity("1Ki").asInteger()'), 1024n);
  assert.equal(evaluate('quantity("1.5k").asInteger()'), 1500n);
  assert.equal(evaluate('quantity("-2e3").asInteger()'), -2000n);
  assert.equal(evaluate('quantity("999999999999999999").asInteger()'), 999999999999999999n);
  assert.equal(evaluate('quantity("9223372036854775807").isInteger()'), false, '19 digits leave the int64 fast path');
  assert.equal(evaluate('quantity("10E").isInteger()'), false, 'beyond int64');
  // Adding to the int64 form at a lower scale keeps it; overflowing it leaves it for good.
  assert.equal(evaluate('quantity("1500m").add(quantity("500m")).isInteger()'), false);
  assert.equal(evaluate('quantity("9223372036854775").add(quantity("9223372036854775")).isInteger()'), true);
  assert.equal(evaluate('quantity("9e18").isInteger()'), true);
  assert.equal(evaluate('quantity("9e18").add(quantity("999999999999999999")).sub(quantity("999999999999999999")).isInteger()'), false);
});

test('quantity library: sign, approximate floats and exact comparison', () => {
  assert.equal(evaluate('quantity("-1.5Gi").sign()'), -1n);
  assert.equal(evaluate('quantity("0").sign()'), 0n);
  assert.equal(evaluate('sign(quantity("3m"))'), 1n);
  assert.equal(evaluate('quantity("1.5Gi").asApproximateFloat()'), 1610612736);
  assert.equal(evaluate('quantity("1m").asApproximateFloat()'), 0.001);
  assert.equal(evaluate('quantity("1Ki") == quantity("1024")'), true);
  assert.equal(evaluate('quantity("0.1") == quantity("100m")'), true);
  assert.equal(evaluate('quantity("1n").compareTo(quantity("0.0000000001"))'), 0n, 'below nano rounds up to 1n');
});
