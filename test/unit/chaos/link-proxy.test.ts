import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, createServer, type Server } from 'node:net';
import { LinkProxy } from '../../chaos/link-proxy.ts';

/** An echo server on a system-chosen port. */
async function echoServer(): Promise<{ server: Server; address: string }> {
  const server = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const bound = server.address();
  assert.ok(bound !== null && typeof bound === 'object');
  return { server, address: `127.0.0.1:${bound.port}` };
}

/** Sends `text` through `address`; resolves with the echo, or 'error'/'silent' when nothing comes back within 300 ms. */
function roundTrip(address: string, text: string): Promise<string> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = createConnection({ host: host ?? '', port: Number(port) });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('silent');
    }, 300);
    socket.on('data', (data) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(data.toString());
    });
    socket.on('error', () => {
      clearTimeout(timer);
      resolve('error');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve('error');
    });
    socket.write(text);
  });
}

test('a link proxy forwards bytes, drops or blackholes them when cut, and forwards again when healed', async (t) => {
  const { server, address } = await echoServer();
  t.after(() => server.close());
  const proxy = await LinkProxy.start(address);
  t.after(() => proxy.close());
  assert.equal(await roundTrip(proxy.address, 'hello'), 'hello');
  proxy.cut('drop');
  assert.equal(await roundTrip(proxy.address, 'dropped'), 'error');
  proxy.cut('blackhole');
  assert.equal(await roundTrip(proxy.address, 'lost'), 'silent');
  proxy.heal();
  assert.equal(proxy.linkMode, 'open');
  assert.equal(await roundTrip(proxy.address, 'again'), 'again');
});
