import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { portsInUse } from '../../../internal/cluster/ports-in-use.ts';
import { freePorts } from '../../support/free-ports.ts';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

test('a port another server listens on is reported with EADDRINUSE; free ports are not, and stay free', async (t) => {
  const [taken, free] = await freePorts(2) as [number, number];
  const server = await listen(taken);
  t.after(() => server.close());
  assert.deepEqual(await portsInUse('127.0.0.1', [free, taken]), [{ port: taken, code: 'EADDRINUSE' }]);
  // The check released the free port: a server can still take it.
  const after = await listen(free);
  after.close();
});
