import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceRegistry } from '../../../internal/registry/resource-registry.ts';
import type { ResourceDeclaration } from '../../../internal/registry/schema/declaration.ts';

function customDecl(version: string, plural = 'widgets'): ResourceDeclaration {
  return { group: 'example.com', version, kind: 'Widget', plural, singular: 'widget', namespaced: true, nameRule: 'subdomain', description: '', fields: {}, strategy: {}, custom: true };
}

test('custom resources join and leave the registry under their owner; each change bumps the generation and tells the listeners', () => {
  const registry = new ResourceRegistry('k8s.io');
  const before = registry.resources.length;
  let told = 0;
  const unsubscribe = registry.onChange(() => told++);
  const served = registry.setCustom('widgets.example.com', [customDecl('v1'), customDecl('v2')]);
  assert.equal(served.length, 2);
  assert.equal(registry.resources.length, before + 2);
  assert.equal(registry.find('example.com', 'v2', 'widgets'), served[1]);
  assert.deepEqual(registry.groups().get('example.com'), ['v1', 'v2']);
  assert.equal(registry.generation, 1);
  registry.setCustom('widgets.example.com', [customDecl('v1')]);
  assert.equal(registry.find('example.com', 'v2', 'widgets'), undefined);
  registry.removeCustom('widgets.example.com');
  assert.equal(registry.find('example.com', 'v1', 'widgets'), undefined);
  assert.equal(registry.resources.length, before);
  assert.equal(told, 3);
  unsubscribe();
  registry.removeCustom('widgets.example.com');
  assert.equal(told, 3, 'removing nothing changes nothing');
});

test('a custom resource claiming a built-in path never shadows the built-in one', () => {
  const registry = new ResourceRegistry('k8s.io');
  const builtin = registry.find('apps', 'v1', 'deployments');
  registry.setCustom('deployments.apps', [{ ...customDecl('v1', 'deployments'), group: 'apps' }]);
  assert.equal(registry.find('apps', 'v1', 'deployments'), builtin);
});
