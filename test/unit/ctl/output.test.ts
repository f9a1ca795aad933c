import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatTable } from '../../../internal/ctl/output.ts';
import { formatServerTable } from '../../../internal/ctl/server-table.ts';

test('a table pads each column to its widest cell, three spaces apart, headers upper-case', () => {
  const text = formatTable(['name', 'role'], [['orch-1', 'leader'], ['orch-22', 'follower']]);
  assert.equal(text, 'NAME      ROLE\norch-1    leader\norch-22   follower\n');
});

test('the server Table prints its priority-0 columns, with NAMESPACE first across namespaces', () => {
  const table = {
    kind: 'Table',
    columnDefinitions: [{ name: 'Name', priority: 0 }, { name: 'Data', priority: 0 }, { name: 'Labels', priority: 1 }, { name: 'Age', priority: 0 }],
    rows: [
      { cells: ['a', 1, 'x=y', '5m'], object: { metadata: { namespace: 'default' } } },
      { cells: ['bb', 12, '', '10s'], object: { metadata: { namespace: 'kube-system' } } },
    ],
  };
  assert.equal(formatServerTable(table, false), 'NAME   DATA   AGE\na      1      5m\nbb     12     10s\n');
  assert.equal(formatServerTable(table, true), 'NAMESPACE     NAME   DATA   AGE\ndefault       a      1      5m\nkube-system   bb     12     10s\n');
});

test('sizes print in binary units', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(3 * 1024 * 1024), '3.0 MiB');
});
