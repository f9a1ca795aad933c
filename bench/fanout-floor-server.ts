// The watch fan-out floor's server process: a bare node:https server holding every GET as an open
// chunked response (as a watch is) and, on each POST, answering the POST and then writing its body
// (one watch event's bytes, as orch sent them) to every open response, one write each, as orch's
// watch writer does. Started by bench/fanout-floor.ts; prints {"port":N} on stdout once listening.
// Usage: fanout-floor-server --cert <file> --key <file>
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' } } });
if (values.cert === undefined || values.key === undefined) {
  process.stderr.write('usage: fanout-floor-server --cert <file> --key <file>\n');
  process.exit(2);
}

const watchers = new Set<ServerResponse>();
const server = createServer({ cert: readFileSync(values.cert), key: readFileSync(values.key) }, (req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    // The headers go out now, as a watch's do: the client counts the watcher connected on them.
    res.flushHeaders();
    watchers.add(res);
    res.on('close', () => watchers.delete(res));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const event = Buffer.concat(chunks);
    // The answer first, as orch answers a write before its watchers get the event.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ watchers: watchers.size }));
    for (const watcher of watchers) watcher.write(event);
  });
});
// No request timeout: a watch stays open for the whole measurement.
server.requestTimeout = 0;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
