import { parseArgs } from 'node:util';
import { flowControlFlagOptions, normalizeFlowControlBooleanFlags, parseFlowControlFlags } from './flow-control-flags.ts';
import type { FlowControlOptions } from '../apiserver/flow-control-setup.ts';
import { authenticationFlagOptions, normalizeBooleanFlags, parseAuthenticationFlags, type AuthenticationFlags } from './authentication-flags.ts';
import { admissionFlagOptions, parseAdmissionFlags, type AdmissionFlags } from './admission-flags.ts';
import { parseServingFlags, servingFlagOptions } from './serving-flags.ts';
import { observabilityFlagOptions, parseObservabilityFlags, type ObservabilityFlags } from './observability-flags.ts';
import { parseSigningFlags, signingFlagOptions, type SigningFlags } from './signing-flags.ts';
import { auditFlagOptions, normalizeAuditBooleanFlags, parseAuditFlags, type AuditFlags } from './audit-flags.ts';
import { parseControllerSelection, type ControllerSelection } from '../controllers/controller-selection.ts';
import type { ServingOptions } from '../registry/resource-registry.ts';
import { authorizationFlagOptions, parseAuthorizationFlags, type AuthorizationFlags } from './authorization-flags.ts';
import { defaultServiceClusterIpRange, defaultServiceNodePortRange, serviceNetwork, type ServiceNetwork } from '../registry/core/service/network.ts';

/** The replica's command-line flags after validation. */
export interface ReplicaFlags {
  readonly name: string;
  readonly dataDir: string;
  readonly pkiDir: string | null;
  readonly advertiseAddress: { readonly host: string; readonly port: number };
  readonly peerAddress: string;
  readonly peers: Readonly<Record<string, string>>;
  /** --join: peer addresses of members of a running cluster to ask for membership ([]: not joining). */
  readonly join: readonly string[];
  /**
   * --initial-cluster-state (etcd's name): `new` founds a cluster of --peers with an empty data
   * directory; `existing` starts empty as a member-to-be of a running cluster (implied by --join).
   */
  readonly initialClusterState: 'new' | 'existing';
  readonly apiDomain: string;
  readonly retentionMs: number;
  readonly shutdownDelayMs: number;
  readonly tickMs: number | undefined;
  readonly electionTicks: number | undefined;
  readonly snapshotEveryEntries: number | undefined;
  /** Entry bytes applied after which a snapshot is taken, whichever of this and the entry count comes first. */
  readonly snapshotEveryBytes: number | undefined;
  readonly snapshotCatchUpEntries: number | undefined;
  /** Where Services get cluster IPs (--service-cluster-ip-range) and node ports (--service-node-port-range). */
  readonly serviceNetwork: ServiceNetwork;
  /** --authorization-mode and the --authorization-webhook-* flags. */
  readonly authorization: AuthorizationFlags;
  /** --enable-admission-plugins, --disable-admission-plugins, --admission-control-config-file ... */
  readonly admission: AdmissionFlags;
  /** --runtime-config and --feature-gates: the group versions served beyond the defaults. */
  readonly serving: ServingOptions;
  /** --client-ca-file, --token-auth-file, --service-account-*, --oidc-*, --requestheader-*, --anonymous-auth, --admin-token-file ... */
  readonly authentication: AuthenticationFlags;
  /** --controllers: which of kube-controller-manager's controllers the replica runs while it leads. */
  readonly controllers: ControllerSelection;
  /** --cluster-signing-*: the CA of each certificate signer and --cluster-signing-duration. */
  readonly signing: SigningFlags;
  /** --audit-policy-file, --audit-log-*, --audit-webhook-*: what is audited and where it goes. */
  readonly audit: AuditFlags;
  /** --v and --tracing-config-file. */
  readonly observability: ObservabilityFlags;
  /** --enable-priority-and-fairness, --max-requests-inflight, --max-mutating-requests-inflight. */
  readonly flowControl: FlowControlOptions;
}

/** A flag that cannot be used; the message names it and says what is expected. */
export class FlagError extends Error {}

/** Parses a Go-style duration (`300ms`, `5s`, `1m30s`, `2h`) into milliseconds. */
export function parseDurationMs(text: string, flag: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (text === '0') return 0;
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) throw new FlagError(`--${flag}: "${text}" is not a duration such as 300ms, 5s or 1m30s`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? ''] ?? 0), 0);
}

/** Parses `host:port`, requiring a port in 0..65535. */
export function parseHostPort(text: string, flag: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || !match[1] || !Number.isInteger(port) || port > 65535) throw new FlagError(`--${flag}: "${text}" is not host:port`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/** Parses --join's `host:port[,host:port...]`. */
export function parseJoinSeeds(text: string): string[] {
  const seeds = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (seeds.length === 0) throw new FlagError('--join: give the peer address (host:port) of at least one member');
  for (const seed of seeds) parseHostPort(seed, 'join');
  return [...new Set(seeds)];
}

/**
 * Parses --initial-cluster-state against --join and --peers: --join implies `existing`; `existing`
 * without --join needs --peers to name the members this replica will hear from (etcd's --initial-cluster).
 */
function parseInitialClusterState(text: string | undefined, joining: boolean, peers: Readonly<Record<string, string>>, name: string): 'new' | 'existing' {
  if (text !== undefined && text !== 'new' && text !== 'existing') throw new FlagError(`--initial-cluster-state: "${text}" is neither new nor existing`);
  if (joining) {
    if (text === 'new') throw new FlagError('--initial-cluster-state: new founds a cluster, but --join joins a running one');
    return 'existing';
  }
  if (text === 'existing' && Object.keys(peers).every((peer) => peer === name)) {
    throw new FlagError('--initial-cluster-state: existing without --join needs --peers naming the running members (name=host:port), this replica included');
  }
  return text ?? 'new';
}

/** Parses `name=host:port,...`. */
export function parsePeers(text: string): Record<string, string> {
  const peers: Record<string, string> = {};
  for (const item of text.split(',').filter((s) => s !== '')) {
    const [name, address] = item.split('=');
    if (!name || !address) throw new FlagError(`--peers: "${item}" is not name=host:port`);
    parseHostPort(address, 'peers');
    peers[name] = address;
  }
  return peers;
}

const byteUnits: Record<string, number> = { '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };

/** Parses a positive byte count: an integer with an optional binary suffix (`1048576`, `512Ki`, `256Mi`, `1Gi`). */
export function parseBytes(text: string, flag: string): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(text);
  const n = match ? Number(match[1]) * (byteUnits[match[2] ?? ''] ?? Number.NaN) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new FlagError(`--${flag}: "${text}" is not a positive byte count such as 1048576, 512Ki, 256Mi or 1Gi`);
  return n;
}

/** The longest Raft tick: node's timers turn anything above 2^31 - 1 ms into 1 ms, a storm of elections. */
export const tickMsMax = 60_000;

function optionalInt(text: string | undefined, flag: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  // Digits only: Number() would also take '1e3', '0x10' or ' 5 '.
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new FlagError(`--${flag}: "${text}" is not a positive integer`);
  if (n > max) throw new FlagError(`--${flag}: ${text} is more than ${max}`);
  return n;
}

/** Parses --service-cluster-ip-range and --service-node-port-range, naming the flag that is wrong. */
function parseServiceNetwork(clusterIpRange: string, nodePortRange: string): ServiceNetwork {
  try {
    serviceNetwork({ clusterIpRange });
  } catch (error) {
    throw new FlagError(`--service-cluster-ip-range: ${(error as Error).message}`);
  }
  try {
    return serviceNetwork({ clusterIpRange, nodePortRange });
  } catch (error) {
    throw new FlagError(`--service-node-port-range: ${(error as Error).message}`);
  }
}

function parseControllers(text: string): ControllerSelection {
  try {
    return parseControllerSelection(text);
  } catch (error) {
    throw new FlagError(`--controllers: ${(error as Error).message}`);
  }
}

/** Parses and validates the flags of cmd/orch-apiserver. Throws FlagError with a usable message. */
export function parseReplicaFlags(argv: readonly string[]): ReplicaFlags {
  const { values } = parseArgs({
    args: normalizeFlowControlBooleanFlags(normalizeAuditBooleanFlags(normalizeBooleanFlags(argv))),
    options: {
      name: { type: 'string' },
      'data-dir': { type: 'string' },
      'pki-dir': { type: 'string' },
      'advertise-address': { type: 'string', default: '127.0.0.1:6443' },
      'peer-address': { type: 'string', default: '127.0.0.1:6543' },
      peers: { type: 'string' },
      join: { type: 'string' },
      'initial-cluster-state': { type: 'string' },
      'api-domain': { type: 'string', default: 'k8s.io' },
      'watch-history-retention': { type: 'string', default: '5m' },
      'shutdown-delay-duration': { type: 'string', default: '0s' },
      'tick-ms': { type: 'string' },
      'election-ticks': { type: 'string' },
      'snapshot-every-entries': { type: 'string' },
      'snapshot-every-bytes': { type: 'string' },
      'snapshot-catch-up-entries': { type: 'string' },
      'service-cluster-ip-range': { type: 'string', default: defaultServiceClusterIpRange },
      'service-node-port-range': { type: 'string', default: defaultServiceNodePortRange },
      controllers: { type: 'string', default: '*' },
      ...authorizationFlagOptions,
      ...admissionFlagOptions,
      ...servingFlagOptions,
      ...authenticationFlagOptions,
      ...signingFlagOptions,
      ...auditFlagOptions,
      ...observabilityFlagOptions,
      ...flowControlFlagOptions,
    },
    strict: true,
  });
  const name = values.name;
  if (!name || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) throw new FlagError('--name is required: a DNS label such as orch-1');
  const peerAddress = values['peer-address'];
  parseHostPort(peerAddress, 'peer-address');
  const peers = values.peers === undefined ? { [name]: peerAddress } : parsePeers(values.peers);
  if (!(name in peers)) throw new FlagError(`--peers must include this replica (${name})`);
  const join = values.join === undefined ? [] : parseJoinSeeds(values.join);
  const initialClusterState = parseInitialClusterState(values['initial-cluster-state'], join.length > 0, peers, name);
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(values['api-domain'])) throw new FlagError(`--api-domain: "${values['api-domain']}" is not a DNS name`);
  const authorization = parseAuthorizationFlags(values, parseDurationMs, (message) => new FlagError(message));
  return {
    name,
    dataDir: values['data-dir'] ?? `.orch/data/${name}`,
    pkiDir: values['pki-dir'] ?? null,
    advertiseAddress: parseHostPort(values['advertise-address'], 'advertise-address'),
    peerAddress,
    peers,
    join,
    initialClusterState,
    apiDomain: values['api-domain'],
    retentionMs: parseDurationMs(values['watch-history-retention'], 'watch-history-retention'),
    shutdownDelayMs: parseDurationMs(values['shutdown-delay-duration'], 'shutdown-delay-duration'),
    tickMs: optionalInt(values['tick-ms'], 'tick-ms', tickMsMax),
    electionTicks: optionalInt(values['election-ticks'], 'election-ticks'),
    snapshotEveryEntries: optionalInt(values['snapshot-every-entries'], 'snapshot-every-entries'),
    snapshotEveryBytes: values['snapshot-every-bytes'] === undefined ? undefined : parseBytes(values['snapshot-every-bytes'], 'snapshot-every-bytes'),
    snapshotCatchUpEntries: optionalInt(values['snapshot-catch-up-entries'], 'snapshot-catch-up-entries'),
    serviceNetwork: parseServiceNetwork(values['service-cluster-ip-range'], values['service-node-port-range']),
    authorization,
    admission: parseAdmissionFlags(values, (message) => new FlagError(message)),
    serving: parseServingFlags(values, values['api-domain'], (message) => new FlagError(message)),
    authentication: parseAuthenticationFlags(values, authorization.modes, { parseDurationMs, makeError: (message) => new FlagError(message) }),
    controllers: parseControllers(values.controllers),
    signing: parseSigningFlags(values, parseDurationMs, (message) => new FlagError(message)),
    audit: parseAuditFlags(values, parseDurationMs, (message) => new FlagError(message)),
    observability: parseObservabilityFlags(values, (message) => new FlagError(message)),
    flowControl: parseFlowControlFlags(values, (message) => new FlagError(message)),
  };
}
