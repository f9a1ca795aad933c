import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesLabels, parseLabelSelector } from '../../../internal/registry/generic/label-selector.ts';
import { StatusError } from '../../../internal/registry/errors/status-error.ts';

test('label selector supports =, ==, !=, in, notin, exists and !', () => {
  const labels = { app: 'web', tier: 'front', env: 'prod' };
  const cases: [string, boolean][] = [
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app in (web,api)', true],
    ['tier notin (front)', false],
    ['env', true],
    ['!env', false],
    ['!missing', true],
    ['missing!=x', true],
    ['app=web,tier in (back, front),!missing', true],
    ['', true],
  ];
  for (const [selector, expected] of cases) assert.equal(matchesLabels(parseLabelSelector(selector), labels), expected, selector);
});

test('malformed label selectors are a 400', () => {
  assert.throws(() => parseLabelSelector('a=b c'), (e: unknown) => e instanceof StatusError && e.code === 400);
  assert.throws(() => parseLabelSelector('-bad=x'), (e: unknown) => e instanceof StatusError && e.code === 400);
});
