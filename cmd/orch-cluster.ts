// Starts a local HA cluster (N replicas on loopback, each its own process) in the foreground.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startLocalCluster } from '../internal/cluster/local-cluster.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: '.orch/data' },
    kubeconfig: { type: 'string', default: '.orch/kubeconfig' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-port': { type: 'string', default: '6443' },
    'peer-port': { type: 'string', default: '6543' },
    replicas: { type: 'string', default: '3' },
  },
});

const count = Number(values.replicas);
const apiPort = Number(values['api-port']);
const peerPort = Number(values['peer-port']);
if (![count, apiPort, peerPort].every(Number.isSafeInteger) || count < 1) {
  console.error('orch-cluster: --replicas, --api-port and --peer-port must be integers');
  process.exit(2);
}
const kubeconfigPath = resolve(values.kubeconfig);
const cluster = await startLocalCluster({
  dataDir: resolve(values['data-dir']),
  host: values.host,
  apiPorts: Array.from({ length: count }, (_, i) => apiPort + i),
  peerPorts: Array.from({ length: count }, (_, i) => peerPort + i),
  kubeconfigPath,
  output: 'prefixed',
  readyTimeoutMs: 120_000,
});

console.log(`
orch is running: ${cluster.replicas.map((r) => `${r.spec.name} ${r.apiUrl}`).join(', ')}
  export KUBECONFIG=${kubeconfigPath}
  kubectl get namespaces                    # through orch-1 (current context)
  kubectl --context orch-2 get --raw /readyz?verbose
Ctrl-C stops all replicas.`);

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await cluster.stop(10_000);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
