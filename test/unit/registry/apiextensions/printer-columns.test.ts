// A custom resource's table columns as kube's tableconvertor builds them: Name first, the version's
// additionalPrinterColumns (or Age when it has none), and cells rendered per column type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customPrinterColumns, customTableColumns } from '../../../../internal/registry/apiextensions/printer-columns.ts';
import type { KObject, PrinterColumn } from '../../../../internal/registry/schema/declaration.ts';

const now = new Date('2024-05-01T12:00:00Z');

const crontab: KObject = {
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'nightly', creationTimestamp: '2024-05-01T11:55:00Z' },
  spec: { cronSpec: '* * * * */5', replicas: 3, ratio: 0.25, big: 1234567.5, suspend: false, image: 'img', tags: ['a', 'b'], selector: { z: '1', a: '<2>' } },
  status: { lastRun: '2024-05-01T09:00:00Z', conditions: [{ type: 'Ready', status: 'True' }] },
};

function column(name: string, type: string, jsonPath: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, type, jsonPath, ...extra };
}

function cells(columns: readonly PrinterColumn[], obj: KObject = crontab): unknown[] {
  return columns.map((c) => c.cell(obj, now));
}

test('a version without columns gets Name and Age, Age a date column of the creation time', () => {
  const columns = customPrinterColumns({ name: 'v1' });
  assert.deepEqual(columns.map((c) => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Age', 'date', '']]);
  assert.match(columns[0]?.description ?? '', /^Name must be unique within a namespace\. Is required when creating resources/);
  assert.match(columns[1]?.description ?? '', /^CreationTimestamp is a timestamp representing the server time/);
  assert.deepEqual(cells(columns), ['nightly', '5m']);
});

test('declared columns follow Name and replace Age; their definitions pass through', () => {
  const columns = customPrinterColumns({
    additionalPrinterColumns: [column('Spec', 'string', '.spec.cronSpec', { description: 'the schedule' }), column('Replicas', 'integer', '.spec.replicas', { priority: 1, format: 'int32' })],
  });
  assert.deepEqual(columns.map((c) => [c.name, c.type, c.format, c.description, c.priority]), [
    ['Name', 'string', 'name', columns[0]?.description, undefined],
    ['Spec', 'string', '', 'the schedule', 0],
    ['Replicas', 'integer', 'int32', 'Custom resource definition column (in JSONPath format): .spec.replicas', 1],
  ]);
  assert.deepEqual(cells(columns), ['nightly', '* * * * */5', 3]);
});

test('cells keep their column type; a value of another type or no value is null', () => {
  const columns = customPrinterColumns({
    additionalPrinterColumns: [
      column('Int', 'integer', '.spec.ratio'),
      column('Num', 'number', '.spec.replicas'),
      column('Bool', 'boolean', '.spec.suspend'),
      column('WrongType', 'integer', '.spec.image'),
      column('Missing', 'string', '.spec.nothing'),
      column('OutOfBounds', 'string', '.spec.tags[7]'),
    ],
  });
  assert.deepEqual(cells(columns).slice(1), [0, 3, false, null, null, null]);
});

test('string columns print as client-go jsonpath prints: numbers as Go, objects as Go JSON, the first result only', () => {
  const columns = customPrinterColumns({
    additionalPrinterColumns: [
      column('Replicas', 'string', '.spec.replicas'),
      column('Big', 'string', '.spec.big'),
      column('Tags', 'string', '.spec.tags'),
      column('Selector', 'string', '.spec.selector'),
      column('AllTags', 'string', '.spec.tags[*]'),
      column('Ready', 'string', '.status.conditions[?(@.type=="Ready")].status'),
    ],
  });
  assert.deepEqual(cells(columns).slice(1), ['3', '1.2345675e+06', '["a","b"]', '{"a":"\\u003c2\\u003e","z":"1"}', 'a', 'True']);
});

test('date columns show the age of a timestamp, <invalid> for a bad one, <unknown> for an empty one', () => {
  const columns = customPrinterColumns({
    additionalPrinterColumns: [column('Last', 'date', '.status.lastRun'), column('Bad', 'date', '.spec.image'), column('Replicas', 'date', '.spec.replicas')],
  });
  assert.deepEqual(cells(columns).slice(1), ['3h', '<invalid>', null]);
  const noTime = { ...crontab, status: { lastRun: '' } };
  assert.equal(columns[1]?.cell(noTime, now), '<unknown>');
});

test('an unparsable column path ends the columns there, with kube error', () => {
  const result = customTableColumns({ additionalPrinterColumns: [column('Ok', 'string', '.spec.image'), column('Bad', 'string', '.spec[x]'), column('After', 'string', '.spec.image')] });
  assert.deepEqual(result.columns.map((c) => c.name), ['Name', 'Ok']);
  assert.equal(result.error, 'unrecognized column definition ".spec[x]"');
});
