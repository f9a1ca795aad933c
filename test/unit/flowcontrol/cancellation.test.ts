// ClientDeparture: what a request's flow control wait listens to instead of an AbortSignal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientDeparture } from '../../../internal/flowcontrol/cancellation.ts';

test('abort calls each listener once, in order, and marks the departure aborted', () => {
  const departure = new ClientDeparture();
  const heard: string[] = [];
  departure.addEventListener('abort', () => heard.push('a'));
  departure.addEventListener('abort', () => heard.push('b'));
  assert.equal(departure.aborted, false);
  departure.abort();
  departure.abort();
  assert.equal(departure.aborted, true);
  assert.deepEqual(heard, ['a', 'b']);
});

test('a removed listener is not called, and one added after the abort never is (as an AbortSignal)', () => {
  const departure = new ClientDeparture();
  const heard: string[] = [];
  const removed = (): void => void heard.push('removed');
  departure.addEventListener('abort', removed);
  departure.removeEventListener('abort', removed);
  departure.removeEventListener('abort', () => undefined);
  departure.abort();
  departure.addEventListener('abort', () => heard.push('late'));
  assert.deepEqual(heard, []);
});
