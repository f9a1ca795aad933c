import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addQuantities, compareQuantities, formatQuantity, milliValue, quantityValue, subtractQuantities, type QuantityValue } from '../../../../internal/registry/schema/quantity-arithmetic.ts';

function q(text: string): QuantityValue {
  const value = quantityValue(text);
  assert.ok(value, text);
  return value;
}

test('values compare exactly across suffix families', () => {
  assert.equal(compareQuantities(q('1Gi'), q('1073741824')), 0);
  assert.equal(compareQuantities(q('1G'), q('1Gi')), -1);
  assert.equal(compareQuantities(q('500m'), q('0.5')), 0);
  assert.equal(compareQuantities(q('1e3'), q('1k')), 0);
  assert.equal(compareQuantities(q('-1'), q('0')), -1);
});

test('a sum keeps the first operand\'s format and is written as kube-apiserver writes it', () => {
  assert.equal(formatQuantity(addQuantities(q('1Gi'), q('512Mi'))), '1536Mi');
  assert.equal(formatQuantity(addQuantities(q('100m'), q('900m'))), '1');
  assert.equal(formatQuantity(addQuantities(q('0'), q('1Gi'))), '1Gi');
  assert.equal(formatQuantity(subtractQuantities(q('1'), q('250m'))), '750m');
  assert.equal(formatQuantity(addQuantities(q('2'), q('3'))), '5');
});

test('milli values round up as Quantity.MilliValue does', () => {
  assert.equal(milliValue(q('1')), 1000n);
  assert.equal(milliValue(q('1n')), 1n);
  assert.equal(milliValue(q('1.5Gi')), 1610612736000n);
});

test('text that is no quantity has no value', () => {
  assert.equal(quantityValue('abc'), undefined);
  assert.equal(quantityValue(undefined), undefined);
});
