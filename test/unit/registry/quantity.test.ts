// Quantities are re-encoded as kube-apiserver v1.28 stores them: each row below was derived by
// following apimachinery's ParseQuantity and CanonicalizeBytes (pkg/api/resource/quantity.go,
// amount.go, suffix.go) by hand, including the quirks a client sees (text the fast path finds
// canonical is kept as written; a DecimalSI exponent past 18 loses its suffix).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuantity } from '../../../internal/registry/schema/quantity.ts';
import { multiplyByPowerOfTwo } from '../../../internal/registry/schema/quantity-decimal.ts';

const formatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const canonical: readonly (readonly [string, string])[] = [
  // Decimal SI: no fraction, the largest suffix, trailing zeros moved into the suffix.
  ['0.5', '500m'], ['0.1', '100m'], ['1000m', '1'], ['1.0', '1'], ['1000', '1k'], ['3.5', '3500m'], ['1.25', '1250m'],
  ['0.001', '1m'], ['1500000', '1500k'], ['2000000000', '2G'], ['1000E', '1'], ['10000000000000000000000', '10'],
  // Binary SI: the largest power of 1024 dividing the value; below 1024 or with a fraction, decimal.
  ['1.5Gi', '1536Mi'], ['1024Mi', '1Gi'], ['2048Mi', '2Gi'], ['1.5Mi', '1536Ki'], ['0.5Ki', '512'], ['1.1Ki', '1126400m'],
  ['0.000000001Ki', '1024n'], ['1.5Ei', '1536Pi'], ['8Ki', '8Ki'], ['0Mi', '0'],
  // Decimal exponent: stays in its family.
  ['1000e0', '1e3'], ['1.55e1000000000', '15500e999999996'], ['123456789012345678901234567890e-30', '123456790e-9'],
  // Kept as written: the int64 fast path judged them canonical.
  ['1e3', '1e3'], ['1E3', '1E3'], ['1e+3', '1e+3'], ['+1', '+1'], ['01', '01'], ['1.500', '1.500'], ['1.', '1.'],
  ['100Mi', '100Mi'], ['1536Ki', '1536Ki'], ['1024', '1024'], ['500m', '500m'], ['100n', '100n'], ['1E', '1E'], ['0', '0'],
  // Rounded up to nano, away from zero.
  ['0.1n', '1n'], ['0.0000000001', '1n'], ['0.333333333333333333333333', '333333334n'], ['1.5e-1000000000', '1e-9'], ['-0.1n', '-1n'],
  // Negative values keep their sign; zero has none.
  ['-0.5', '-500m'], ['-1.5Gi', '-1536Mi'], ['-1000', '-1k'], ['-0', '0'], ['00', '0'], ['-0.000', '0'],
  // Very large: binary is capped at 2^63-1, decimal is not.
  ['16Ei', '9223372036854775807'], ['-16Ei', '-9223372036854775807'], ['99999999999999999999Ki', '9223372036854775807'],
  ['9223372036854775808', '9223372036854775808'], ['12345678901234567890', '12345678901234567890'],
  // Go's scanner takes a lone sign, point or suffix as zero.
  ['+', '0'], ['-', '0'], ['.', '0'], ['Ki', '0'], ['m', '0'], ['.5', '500m'],
];

test('quantities read back in the form kube-apiserver stores them', () => {
  for (const [text, want] of canonical) assert.equal(parseQuantity(text).canonical, want, text);
});

test('malformed quantities are refused with apimachinery\'s three errors', () => {
  for (const text of ['', 'lots', '1Qi', '1.2.3', '1e3x', '--1x']) assert.equal(parseQuantity(text).error, formatWrong, text);
  for (const text of ['1kk', '1e', '1ee3', '1e+', '1-', '1e99999999999999999999', '1ki']) assert.equal(parseQuantity(text).error, "unable to parse quantity's suffix", text);
  // The inf.Dec path needs a digit; the int64 path takes none as zero.
  for (const text of ['Ei', '.Ei', '+.Ei']) assert.equal(parseQuantity(text).error, 'unable to parse numeric part of quantity', text);
});

test('a quantity megabytes long is canonicalized in linear time', () => {
  const started = performance.now();
  const long = `1.${'0'.repeat(2_000_000)}1`;
  assert.equal(parseQuantity(`${long}Ki`).canonical, '1024000000001n');
  assert.equal(parseQuantity(long).canonical, '1000000001n');
  assert.equal(parseQuantity(`${'9'.repeat(2_000_000)}`).canonical, '9'.repeat(2_000_000));
  // Not a performance measure: quadratic work on 2,000,000 digits takes hours, linear well under a second; the bound leaves room for a loaded CI machine.
  assert.ok(performance.now() - started < 30_000, `took ${performance.now() - started} ms`);
});

test('multiplying digits by a power of two is exact past 2^53', () => {
  assert.equal(multiplyByPowerOfTwo({ negative: false, digits: '123456789123456789', exponent: 0 }, 60).digits, (123456789123456789n << 60n).toString());
  assert.equal(multiplyByPowerOfTwo({ negative: false, digits: '9999999', exponent: 0 }, 33).digits, (9999999n << 33n).toString());
});
