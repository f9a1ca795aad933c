import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultControllerSelection, parseControllerSelection } from '../../../internal/controllers/controller-selection.ts';
import { createControllers } from '../../../internal/controllers/controllers.ts';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import { FlagError, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';

test('the default selection runs every controller but the bootstrap-token ones', () => {
  assert.equal(defaultControllerSelection.enabled('namespace'), true);
  assert.equal(defaultControllerSelection.enabled('csrsigning'), true);
  assert.equal(defaultControllerSelection.enabled('bootstrapsigner'), false);
  assert.equal(defaultControllerSelection.enabled('tokencleaner'), false);
});

test('named controllers are turned on, dashed ones off, and without a star only the named ones run', () => {
  const withTokens = parseControllerSelection('*,bootstrapsigner,tokencleaner');
  assert.equal(withTokens.enabled('bootstrapsigner'), true);
  assert.equal(withTokens.enabled('tokencleaner'), true);
  assert.equal(withTokens.enabled('garbagecollector'), true);
  const withoutGc = parseControllerSelection('*,-garbagecollector');
  assert.equal(withoutGc.enabled('garbagecollector'), false);
  assert.equal(withoutGc.enabled('namespace'), true);
  const onlyTwo = parseControllerSelection('namespace,csrsigning');
  assert.equal(onlyTwo.enabled('namespace'), true);
  assert.equal(onlyTwo.enabled('csrsigning'), true);
  assert.equal(onlyTwo.enabled('garbagecollector'), false);
  // The first entry naming a controller decides, as kube's IsControllerEnabled reads the list.
  assert.equal(parseControllerSelection('-namespace,namespace,*').enabled('namespace'), false);
});

test('an unknown controller is refused with kube-controller-manager\'s message, naming the flag', () => {
  assert.throws(() => parseControllerSelection('*,nosuch'), /^Error: "nosuch" is not in the list of known controllers$/);
  assert.throws(() => parseReplicaFlags(['--name', 'orch-1', '--controllers=*,-nosuch']), (err: unknown) => {
    assert.ok(err instanceof FlagError);
    assert.equal(err.message, '--controllers: "nosuch" is not in the list of known controllers');
    return true;
  });
  assert.equal(parseReplicaFlags(['--name', 'orch-1', '--controllers=*,tokencleaner']).controllers.enabled('tokencleaner'), true);
});

test('the selection decides which controllers a replica runs, and the API server\'s own controllers always run', () => {
  const registry = new ResourceRegistry('k8s.io');
  const names = (selection: string): string[] =>
    createControllers({ registry, stores: new Map(), log: () => undefined }, { selection: parseControllerSelection(selection) }).map((c) => c.name);
  const all = names('*');
  assert.ok(all.includes('garbage-collector') && all.includes('namespace'));
  const some = names('namespace');
  assert.ok(some.includes('namespace'));
  assert.ok(!some.includes('garbage-collector'));
  assert.ok(!names('*,-garbagecollector').includes('garbage-collector'));
  for (const own of ['service-allocation-repair', 'crd-naming', 'crd-finalizer']) assert.ok(some.includes(own), own);
});
