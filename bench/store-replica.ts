// One replica of orch's replicated store, as its own OS process, for the store-level benchmark:
// exactly the store a real replica runs (internal/replica/start-replica.ts: RaftNode over gRPC
// with mutual TLS, SQLite with fsync, ReplicatedStorage relaying from followers) with the
// production Raft timings, minus the API server and controllers, behind bench/store-http.ts.
// `node --import tsx bench/store-replica.ts --name store-1 --data-dir D --pki-dir P
//   --listen 127.0.0.1:7001 --peers store-1=127.0.0.1:7001,... --http-port 8001`
import { parseArgs } from 'node:util';
import { ensureClusterPki } from '../internal/certificates/index.ts';
import { parseHostPort, parsePeers } from '../internal/replica/parse-flags.ts';
import { openRaftStorage } from '../internal/storage/raft-storage.ts';
import { TimingRecorder } from './server-timings.ts';
import { startStoreHttpServer } from './store-http.ts';

function log(message: string, err?: unknown): void {
  process.stderr.write(`${new Date().toISOString()} ${name}: ${message}${err === undefined ? '' : ` ${err instanceof Error ? err.stack : String(err)}`}\n`);
}

function usage(message: string): never {
  process.stderr.write(`store-replica: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    'data-dir': { type: 'string' },
    'pki-dir': { type: 'string' },
    listen: { type: 'string' },
    peers: { type: 'string' },
    'http-port': { type: 'string' },
  },
  strict: true,
});
const name = values.name ?? usage('--name is required');
const dataDir = values['data-dir'] ?? usage('--data-dir is required');
const pkiDir = values['pki-dir'] ?? usage('--pki-dir is required');
const listen = values.listen ?? usage('--listen (peer host:port) is required');
const httpPort = Number(values['http-port']);
if (!Number.isInteger(httpPort) || httpPort <= 0 || httpPort > 65535) usage(`--http-port: "${values['http-port'] ?? ''}" is not a port`);
let peers: Record<string, string>;
try {
  parseHostPort(listen, 'listen');
  peers = parsePeers(values.peers ?? usage('--peers (name=host:port,...) is required'));
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
if (!(name in peers)) usage(`--peers must include this replica (${name})`);

// The parent created the CA and every replica's certificate; this only loads them.
const pki = await ensureClusterPki(pkiDir, [name]);
const identity = pki.replicas[name];
if (identity === undefined) throw new Error(`assert: no certificate for ${name}`);
// As start-replica.ts calls it, without tickMs/electionTicks/snapshot overrides: production defaults.
const timings = new TimingRecorder();
const store = await openRaftStorage({
  dataDir,
  replicaName: name,
  raft: {
    id: name,
    peers,
    listen,
    tls: { ca: pki.ca.cert, cert: identity.cert, key: identity.key },
    onError: (err) => log('raft background error', err),
    timings,
  },
});
const http = await startStoreHttpServer({ storage: store.storage, host: '127.0.0.1', port: httpPort, isReady: () => store.node.leaderId() !== null, takeTimings: () => ({ ...timings.take(), raft: store.node.metrics() }) });
log(`serving http://127.0.0.1:${http.port}, peers on ${listen}`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  try {
    await http.close();
    await store.close();
  } catch (error) {
    log('stop failed', error);
    process.exit(1);
  }
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
