// A Raft transport alone in its own process, for tests that kill a peer:
// `node --import tsx test/support/transport-peer.ts <dir> <id> <peer>=<host:port>` loads the cluster
// PKI under <dir>/pki, starts the transport, sends <peer> one heartbeat (which opens its message
// stream there) and says 'sent' on the IPC channel. It runs until killed.
import { join } from 'node:path';
import { ensureClusterPki } from '../../internal/certificates/index.ts';
import { index, makeMessage, term } from '../../raft/core/index.ts';
import { Transport } from '../../raft/transport.ts';

const [dir = '', id = '', peerArg = ''] = process.argv.slice(2);
const [peer = '', address = ''] = peerArg.split('=');
const pki = await ensureClusterPki(join(dir, 'pki'), [id, peer]);
const pair = pki.replicas[id];
if (pair === undefined) throw new Error(`assert: no certificate for ${id}`);
const transport = await Transport.start({
  id, listen: '127.0.0.1:0', peers: { [peer]: address }, tls: { ca: pki.ca.cert, cert: pair.cert, key: pair.key },
  snapshotDir: join(dir, id),
  handlers: { onMessages: () => {}, onSnapshot: () => false, onForward: () => Promise.resolve(new Uint8Array(0)), onUnreachable: () => {}, onSnapshotStatus: () => {} },
});
transport.send([makeMessage({ type: 'heartbeat', from: id, to: peer, term: term(1), commit: index(0) })]);
transport.flush();
process.send?.('sent');
