// Loads a kubeconfig file the way kubectl reads it: clusters, users and contexts by name,
// file references resolved against the kubeconfig's own directory.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { KubeconfigError } from './errors.ts';
import { parseExecConfig, type ExecConfig } from './exec-config.ts';
import { execClusterExtensionName } from './exec-plugin.ts';

/** One cluster entry: where the API is and how to trust it. */
export interface KubeconfigCluster {
  readonly server: string;
  /** PEM bytes of the CA, from `certificate-authority-data` or the file `certificate-authority` names. */
  readonly caPem?: string;
  readonly insecureSkipTlsVerify: boolean;
  /** The `client.authentication.k8s.io/exec` entry of `extensions`, handed to exec plugins that ask for cluster info. */
  readonly execExtension?: unknown;
}

/** One user entry: the credentials it holds (already read from files). */
export interface KubeconfigUser {
  readonly token?: string;
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  /** A credential plugin to run instead of fixed credentials. */
  readonly exec?: ExecConfig;
}

/** One context entry: names of a cluster and a user, and a default namespace. */
export interface KubeconfigContext {
  readonly cluster: string;
  readonly user: string;
  readonly namespace?: string;
}

/** A parsed kubeconfig; every file reference has been read. */
export interface Kubeconfig {
  readonly clusters: ReadonlyMap<string, KubeconfigCluster>;
  readonly users: ReadonlyMap<string, KubeconfigUser>;
  readonly contexts: ReadonlyMap<string, KubeconfigContext>;
  readonly currentContext?: string;
}

/** What a client needs from one context: endpoint, trust, credentials, namespace. */
export interface ResolvedContext {
  readonly name: string;
  readonly cluster: KubeconfigCluster;
  readonly user: KubeconfigUser;
  readonly namespace: string;
}

type Dict = Record<string, unknown>;

function asDict(value: unknown, what: string): Dict {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new KubeconfigError(`${what} must be a mapping`);
  return value as Dict;
}

function optionalString(dict: Dict, key: string, what: string): string | undefined {
  const value = dict[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new KubeconfigError(`${what}.${key} must be a string`);
  return value;
}

function namedEntries(root: Dict, listKey: string, itemKey: string): Array<[string, Dict]> {
  const list = root[listKey];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new KubeconfigError(`${listKey} must be a list`);
  return list.map((item: unknown, i): [string, Dict] => {
    const entry = asDict(item, `${listKey}[${i}]`);
    const name = optionalString(entry, 'name', `${listKey}[${i}]`);
    if (name === undefined) throw new KubeconfigError(`${listKey}[${i}] has no name`);
    return [name, asDict(entry[itemKey], `${listKey}[${i}].${itemKey}`)];
  });
}

function readRelative(file: string, baseDir: string, what: string): string {
  const path = isAbsolute(file) ? file : resolve(baseDir, file);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new KubeconfigError(`${what}: cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Reads inline base64 data or a file (relative to `baseDir`); undefined when neither is set. */
function dataOrFile(dict: Dict, dataKey: string, fileKey: string, baseDir: string, what: string): string | undefined {
  const data = optionalString(dict, dataKey, what);
  if (data !== undefined) return Buffer.from(data, 'base64').toString('utf8');
  const file = optionalString(dict, fileKey, what);
  return file === undefined ? undefined : readRelative(file, baseDir, `${what}.${fileKey}`);
}

function parseCluster(dict: Dict, baseDir: string, what: string): KubeconfigCluster {
  const server = optionalString(dict, 'server', what);
  if (server === undefined) throw new KubeconfigError(`${what} has no server`);
  const caPem = dataOrFile(dict, 'certificate-authority-data', 'certificate-authority', baseDir, what);
  const execExtension = namedExtension(dict, execClusterExtensionName, what);
  return {
    server,
    ...(caPem === undefined ? {} : { caPem }),
    insecureSkipTlsVerify: dict['insecure-skip-tls-verify'] === true,
    ...(execExtension === undefined ? {} : { execExtension }),
  };
}

/** The value of the `extensions` entry called `name` ({name, extension} pairs), or undefined. */
function namedExtension(dict: Dict, name: string, what: string): unknown {
  const list = dict['extensions'];
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw new KubeconfigError(`${what}.extensions must be a list`);
  const entry = list.find((item: unknown) => asDict(item, `${what}.extensions[]`)['name'] === name) as Dict | undefined;
  return entry?.['extension'] ?? undefined;
}

function parseUser(dict: Dict, baseDir: string, what: string): KubeconfigUser {
  const inlineToken = optionalString(dict, 'token', what);
  const tokenFile = optionalString(dict, 'tokenFile', what) ?? optionalString(dict, 'token-file', what);
  const token = inlineToken ?? (tokenFile === undefined ? undefined : readRelative(tokenFile, baseDir, `${what}.token-file`).trim());
  const clientCertPem = dataOrFile(dict, 'client-certificate-data', 'client-certificate', baseDir, what);
  const clientKeyPem = dataOrFile(dict, 'client-key-data', 'client-key', baseDir, what);
  if ((clientCertPem === undefined) !== (clientKeyPem === undefined)) {
    throw new KubeconfigError(`${what}: a client certificate needs its key and a key its certificate`);
  }
  const exec = dict['exec'] === undefined || dict['exec'] === null ? undefined : parseExecConfig(dict['exec'], baseDir, what);
  if (exec !== undefined && (token !== undefined || clientCertPem !== undefined)) {
    // Refused out loud rather than guessing which one wins on each request.
    throw new KubeconfigError(`${what}: exec cannot be combined with a token or a client certificate`);
  }
  return {
    ...(token === undefined ? {} : { token }),
    ...(clientCertPem === undefined ? {} : { clientCertPem }),
    ...(clientKeyPem === undefined ? {} : { clientKeyPem }),
    ...(exec === undefined ? {} : { exec }),
  };
}

/** Parses kubeconfig YAML text; `baseDir` resolves relative file references. Throws KubeconfigError. */
export function parseKubeconfig(text: string, baseDir: string): Kubeconfig {
  let root: Dict;
  try {
    root = asDict(parse(text, { version: '1.1' }), 'kubeconfig');
  } catch (error) {
    if (error instanceof KubeconfigError) throw error;
    throw new KubeconfigError(`kubeconfig is not valid YAML: ${(error as Error).message}`);
  }
  const clusters = new Map(namedEntries(root, 'clusters', 'cluster').map(([n, d]) => [n, parseCluster(d, baseDir, `cluster ${n}`)]));
  const users = new Map(namedEntries(root, 'users', 'user').map(([n, d]) => [n, parseUser(d, baseDir, `user ${n}`)]));
  const contexts = new Map(
    namedEntries(root, 'contexts', 'context').map(([n, d]): [string, KubeconfigContext] => {
      const namespace = optionalString(d, 'namespace', `context ${n}`);
      return [n, { cluster: optionalString(d, 'cluster', `context ${n}`) ?? '', user: optionalString(d, 'user', `context ${n}`) ?? '', ...(namespace === undefined ? {} : { namespace }) }];
    }),
  );
  const currentContext = optionalString(root, 'current-context', 'kubeconfig');
  return { clusters, users, contexts, ...(currentContext === undefined ? {} : { currentContext }) };
}

/** Reads and parses a kubeconfig file; relative paths inside it are resolved against its directory. */
export function loadKubeconfig(path: string): Kubeconfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new KubeconfigError(`cannot read kubeconfig ${path}: ${(error as Error).message}`);
  }
  return parseKubeconfig(text, dirname(resolve(path)));
}

/** Resolves a context (default: current-context) to its cluster and user. Throws KubeconfigError. */
export function resolveContext(config: Kubeconfig, contextName?: string): ResolvedContext {
  const name = contextName ?? config.currentContext;
  if (name === undefined) throw new KubeconfigError('kubeconfig has no current-context and none was given');
  const context = config.contexts.get(name);
  if (context === undefined) throw new KubeconfigError(`context ${name} not found`);
  const cluster = config.clusters.get(context.cluster);
  if (cluster === undefined) throw new KubeconfigError(`context ${name}: cluster ${context.cluster} not found`);
  const user = context.user === '' ? {} : config.users.get(context.user);
  if (user === undefined) throw new KubeconfigError(`context ${name}: user ${context.user} not found`);
  return { name, cluster, user, namespace: context.namespace ?? 'default' };
}

/**
 * All servers that a multi-endpoint client may balance over for a context: the context's own server
 * first, then every other cluster trusted by the same CA (orch writes one cluster per replica).
 */
export function sameCaServers(config: Kubeconfig, context: ResolvedContext): string[] {
  const servers = [context.cluster.server];
  for (const cluster of config.clusters.values()) {
    if (cluster.caPem === context.cluster.caPem && cluster.insecureSkipTlsVerify === context.cluster.insecureSkipTlsVerify && !servers.includes(cluster.server)) {
      servers.push(cluster.server);
    }
  }
  return servers;
}
