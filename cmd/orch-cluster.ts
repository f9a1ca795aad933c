// Starts a local HA cluster (N replicas on loopback, each its own process) in the foreground.
// Logs (its own and its replicas') are JSON lines on stderr; stdout has the how-to-use text only.
// Everything after `--` is appended to each replica's command line, `{replica}` in it replaced by
// the replica's name (orch-1, ...): `-- --audit-policy-file p.yaml --audit-log-path /var/log/{replica}.log`.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../internal/cluster/local-cluster.ts';
import { replicaPassThroughArgs, splitPassThrough } from '../internal/cluster/pass-through.ts';
import { PortsInUseError } from '../internal/cluster/ports-in-use.ts';
import { Logger, parseVerbosity } from '../internal/logging/logger.ts';
import { childLineForwarder, routeProcessOutput } from '../internal/logging/process-output.ts';

const usage = `Usage: orch-cluster [flags] [-- replica flags...]

Starts a local cluster of orch-apiserver replicas on loopback, in the foreground (Ctrl-C stops it).

Flags:
  --data-dir DIR               replicas' data and PKI (default .orch/data)
  --kubeconfig FILE            the admin kubeconfig written, one context per replica (default .orch/kubeconfig)
  --host HOST                  the address replicas listen and advertise on (default 127.0.0.1)
  --api-port PORT              the first replica's API port; the next ones count up (default 6443)
  --peer-port PORT             the first replica's Raft peer port; the next ones count up (default 6543)
  --replicas N                 how many replicas (default 3)
  -v, --v N                    log verbosity, klog's, passed on to every replica (default 0)
  --tracing-config-file FILE   a TracingConfiguration, passed on to every replica
  -h, --help                   this text
  -- ARGS...                   appended to every replica's command line; {replica} in them is the
                               replica's name, e.g. -- --audit-policy-file p.yaml --audit-log-path /var/log/orch/{replica}.log
`;

const bootLogger = Logger.create({ component: 'orch-cluster', verbosity: 0 });
routeProcessOutput(bootLogger);
const { own: ownArgs, passThrough: replicaPassThrough } = splitPassThrough(process.argv.slice(2));
let values;
let verbosity: number;
try {
  ({ values } = parseArgs({
    args: ownArgs,
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      'data-dir': { type: 'string', default: '.orch/data' },
      kubeconfig: { type: 'string', default: '.orch/kubeconfig' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-port': { type: 'string', default: '6443' },
      'peer-port': { type: 'string', default: '6543' },
      replicas: { type: 'string', default: '3' },
      // Passed on to every replica too.
      v: { type: 'string', short: 'v', default: '0' },
      'tracing-config-file': { type: 'string' },
    },
  }));
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  verbosity = parseVerbosity(values.v);
} catch (error) {
  bootLogger.error(`${(error as Error).message} (orch-cluster --help lists the flags)`);
  process.exit(2);
}
const logger = Logger.create({ component: 'orch-cluster', verbosity });

const count = Number(values.replicas);
const apiPort = Number(values['api-port']);
const peerPort = Number(values['peer-port']);
if (![count, apiPort, peerPort].every(Number.isSafeInteger) || count < 1) {
  logger.error('--replicas, --api-port and --peer-port must be integers');
  process.exit(2);
}
const tracingConfigFile = values['tracing-config-file'];
const extraArgs = [`--v=${verbosity}`, ...(tracingConfigFile === undefined ? [] : ['--tracing-config-file', resolve(tracingConfigFile)])];
const kubeconfigPath = resolve(values.kubeconfig);
const apiPorts = Array.from({ length: count }, (_, i) => apiPort + i);
const peerPorts = Array.from({ length: count }, (_, i) => peerPort + i);
let cluster: LocalCluster;
try {
  cluster = await startLocalCluster({
    dataDir: resolve(values['data-dir']), host: values.host, apiPorts, peerPorts, kubeconfigPath, extraArgs,
    ...(replicaPassThrough.length === 0 ? {} : { replicaArgs: (name: string) => replicaPassThroughArgs(replicaPassThrough, name) }),
    output: { onLine: childLineForwarder(logger) }, readyTimeoutMs: 120_000,
  });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const held = error instanceof PortsInUseError && PortsInUseError.heldByAnother(error.refused);
  const hint = held ? ' (make run uses fixed ports: stop the other cluster, or choose --api-port and --peer-port)' : '';
  logger.error(`${message}${hint}`);
  process.exit(1);
}

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
// One replica down is a cluster still serving (kill one to watch a failover); all of them is not.
for (const replica of cluster.replicas) {
  // 'close', after the replica's output is drained: the exit below would cut its last lines.
  replica.process?.on('close', () => {
    if (stopping || cluster.replicas.some((r) => r.process !== null)) return;
    logger.error('every replica has exited (their lines above say why)');
    process.exit(1);
  });
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
