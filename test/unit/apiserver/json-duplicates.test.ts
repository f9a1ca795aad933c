import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDuplicateKeys } from '../../../internal/apiserver/json-duplicates.ts';

test('keys are compared as decoded strings: escapes and escaped quotes inside keys and values do not end a string early', () => {
  assert.deepEqual(findDuplicateKeys('{"a\\\\":1,"a\\\\":2}', 10).paths, ['a\\']);
  assert.deepEqual(findDuplicateKeys('{"a\\"b":1,"a\\"b":2}', 10).paths, ['a"b']);
  assert.deepEqual(findDuplicateKeys('{"x":"\\\\\\"","y":{"z":"\\\\","z":"\\""}}', 10).paths, ['y.z']);
  assert.deepEqual(findDuplicateKeys('{"\\u0061":1,"a":2}', 10).paths, ['a']);
  assert.deepEqual(findDuplicateKeys('{"a":"}","b":"\\\\"}', 10).paths, []);
});
