// The outbound client's bounds: a response too large, a server too slow.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OutboundRequestError, sendOutboundRequest } from '../../../internal/authn/https-client.ts';
import { remoteResponseBytesMax } from '../../../internal/authn/limits.ts';

let server: Server;
let base: string;
const timers: NodeJS.Timeout[] = [];

before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/large') return res.end(Buffer.alloc(remoteResponseBytesMax + 1, 'a'));
    if (req.url === '/drip') {
      res.write('{');
      // One byte every 20 ms: never idle long, never done.
      const timer = setInterval(() => res.write(' '), 20);
      timers.push(timer);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  server.close();
});

describe('outbound requests', () => {
  it('read a response whole', async () => {
    const response = await sendOutboundRequest({ method: 'GET', url: new URL(`${base}/`), tls: {} });
    assert.equal(response.status, 200);
    assert.equal(response.body.toString(), '{"ok":true}');
  });

  it('refuse a response over the size limit', async () => {
    await assert.rejects(sendOutboundRequest({ method: 'GET', url: new URL(`${base}/large`), tls: {} }), (e: unknown) => e instanceof OutboundRequestError && e.message === 'response too large' && !e.transient);
  });

  it('give up on a server that drips bytes past the deadline (a whole-exchange deadline, not an idle one)', async () => {
    const started = Date.now();
    await assert.rejects(sendOutboundRequest({ method: 'GET', url: new URL(`${base}/drip`), tls: {}, timeoutMs: 300 }), (e: unknown) => e instanceof OutboundRequestError && e.transient);
    assert.ok(Date.now() - started < 2000);
  });

  it('report a refused connection as final (kube does not retry it)', async () => {
    await assert.rejects(sendOutboundRequest({ method: 'GET', url: new URL('http://127.0.0.1:1/'), tls: {} }), (e: unknown) => e instanceof OutboundRequestError && !e.transient);
  });
});
