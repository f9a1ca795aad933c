import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideNames } from '../../../../internal/controllers/apiextensions/crd-names.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';

function crd(names: Record<string, unknown>, status?: Record<string, unknown>): KObject {
  return { metadata: { name: `${String(names.plural)}.example.com` }, spec: { group: 'example.com', names }, ...(status ? { status } : {}) };
}

test('names no other definition of the group holds are accepted, with kube\'s conditions; listKind and singular default', () => {
  const verdict = decideNames(crd({ plural: 'widgets', kind: 'Widget', shortNames: ['wd'] }), []);
  assert.deepEqual(verdict.acceptedNames, { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList' });
  assert.deepEqual(verdict.namesAccepted, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
  assert.deepEqual(verdict.established, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
});

test('a name another definition holds is refused with the conflict\'s reason, and the definition is not established', () => {
  const held = [{ plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList' }];
  const plural = decideNames(crd({ plural: 'widgets', kind: 'Gadget' }), held);
  assert.deepEqual(plural.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"widgets" is already in use' });
  assert.deepEqual(plural.established, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  assert.deepEqual(plural.acceptedNames, { plural: '', kind: '' });
  assert.equal(decideNames(crd({ plural: 'gadgets', kind: 'Gadget', shortNames: ['wd'] }), held).namesAccepted.reason, 'ShortNamesConflict');
  assert.equal(decideNames(crd({ plural: 'gadgets', singular: 'gadget', kind: 'Widget' }), held).namesAccepted.reason, 'KindConflict');
});

test('an established definition whose new names conflict keeps the names it holds and stays established', () => {
  const status = { acceptedNames: { plural: 'gadgets', kind: 'Gadget' }, conditions: [{ type: 'Established', status: 'True' }] };
  const verdict = decideNames(crd({ plural: 'widgets', kind: 'Gadget' }, status), [{ plural: 'widgets', kind: 'Widget' }]);
  assert.equal(verdict.acceptedNames.plural, 'gadgets');
  assert.equal(verdict.established, undefined);
});
