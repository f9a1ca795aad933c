import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, UnavailableError, UnknownOutcomeError } from '../../../internal/client/errors.ts';
import { readOutcomeOf, writeOutcomeOf } from '../../chaos/checkers/record.ts';

test('client errors map to history outcomes conservatively', () => {
  const api = (status: number) => new ApiError(status, 'X', 'x', undefined, 'e');
  assert.deepEqual(writeOutcomeOf(api(409)), { outcome: 'fail', code: 409 });
  assert.deepEqual(writeOutcomeOf(api(500)), { outcome: 'unknown' });
  assert.deepEqual(writeOutcomeOf(new UnknownOutcomeError('x', { cause: undefined })), { outcome: 'unknown' });
  assert.deepEqual(writeOutcomeOf(new UnavailableError('x', { cause: undefined })), { outcome: 'fail' });
  assert.deepEqual(writeOutcomeOf(new Error('boom')), { outcome: 'unknown' });
  assert.deepEqual(readOutcomeOf(api(404)), { outcome: 'ok', code: 404 });
  assert.deepEqual(readOutcomeOf(api(503)), { outcome: 'fail' });
});
