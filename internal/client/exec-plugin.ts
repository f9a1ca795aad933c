// One run of an exec credential plugin (client.authentication.k8s.io ExecCredential protocol, as
// client-go's plugin/pkg/client/auth/exec runs it): the input in KUBERNETES_EXEC_INFO, the answer
// on stdout, checked before anything uses it. Caching and single-flight live in
// exec-credential.ts; this module only runs and checks.
import { spawn } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { ExecConfig } from './exec-config.ts';
import { ExecPluginError } from './errors.ts';
import * as limits from './limits.ts';

/** The environment variable that carries the plugin's ExecCredential input. */
export const execInfoEnvironmentVariable = 'KUBERNETES_EXEC_INFO';

/** The kubeconfig extension whose value is handed to the plugin as `spec.cluster.config`. */
export const execClusterExtensionName = 'client.authentication.k8s.io/exec';

/** What the plugin learns of the cluster when `provideClusterInfo` is set. */
export interface ExecClusterInfo {
  readonly server: string;
  readonly caPem?: string;
  readonly insecureSkipTlsVerify: boolean;
  /** The cluster's `client.authentication.k8s.io/exec` extension, passed through untouched. */
  readonly config?: unknown;
}

/** A checked plugin answer: a token, or a certificate and its key (PEM), or both; and when it expires. */
export interface ExecAnswer {
  readonly token?: string;
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  /** Milliseconds since the epoch; undefined when the answer does not expire. */
  readonly expiresAtMs?: number;
}

/** How to run a plugin; the defaults are the real process environment and limits.ts. */
export interface ExecRunOptions {
  /** Cluster info, sent only when the config sets provideClusterInfo. */
  readonly cluster?: ExecClusterInfo;
  /** The base environment (default: process.env); the config's `env` entries are added over it. */
  readonly environment?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * The ExecCredential input of a run. orch clients never hand the plugin their terminal, so
 * `interactive` is always false.
 */
export function execInfo(config: ExecConfig, cluster: ExecClusterInfo | undefined): Record<string, unknown> {
  const spec: Record<string, unknown> = { interactive: false };
  if (config.provideClusterInfo && cluster !== undefined) {
    // Field names and omissions follow the v1/v1beta1 Cluster type (omitempty fields left out).
    spec['cluster'] = {
      server: cluster.server,
      ...(cluster.caPem === undefined ? {} : { 'certificate-authority-data': Buffer.from(cluster.caPem).toString('base64') }),
      ...(cluster.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
      ...(cluster.config === undefined ? {} : { config: cluster.config }),
    };
  }
  return { apiVersion: config.apiVersion, kind: 'ExecCredential', spec };
}

/** Runs the plugin once and returns its checked answer. Throws ExecPluginError. */
export async function runExecPlugin(config: ExecConfig, options: ExecRunOptions = {}): Promise<ExecAnswer> {
  if (config.interactiveMode === 'Always') {
    throw new ExecPluginError(`exec plugin ${config.command}: interactiveMode is Always but standard input is not a terminal (orch clients run plugins without one)`);
  }
  const output = await runProcess(config, options);
  return checkAnswer(config, output.stdout, output.stderrTail);
}

interface ProcessOutput {
  readonly stdout: string;
  readonly stderrTail: string;
}

function withStderr(message: string, stderrTail: string): string {
  const tail = stderrTail.trim();
  return tail === '' ? message : `${message}; stderr: ${tail}`;
}

function runProcess(config: ExecConfig, options: ExecRunOptions): Promise<ProcessOutput> {
  const environment: NodeJS.ProcessEnv = { ...(options.environment ?? process.env) };
  for (const { name, value } of config.env) environment[name] = value;
  environment[execInfoEnvironmentVariable] = JSON.stringify(execInfo(config, options.cluster));
  const timeoutMs = options.timeoutMs ?? limits.execPluginTimeoutMs;
  return new Promise((resolve, reject) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    // Not interactive: stdin is /dev/null, never the terminal. Its own process group, so that a
    // plugin that must be stopped is stopped with everything it started (a shell's children hold
    // its pipes open).
    const child = spawn(config.command, [...config.args], { env: environment, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const stop = (reason: string): void => {
      killGroup(child.pid);
      child.stdout.destroy();
      child.stderr.destroy();
      settle(() => reject(new ExecPluginError(withStderr(`exec plugin ${config.command} ${reason}`, stderr.toString('utf8')))));
    };
    const timer = setTimeout(() => stop(`did not answer within ${timeoutMs} ms`), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > limits.execPluginOutputBytesMax) stop(`answered more than ${limits.execPluginOutputBytesMax} bytes`);
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > limits.execPluginStderrTailBytes) stderr = stderr.subarray(stderr.length - limits.execPluginStderrTailBytes);
    });
    child.on('error', (error: NodeJS.ErrnoException) => settle(() => reject(spawnError(config, error, stderr.toString('utf8')))));
    child.on('close', (code, signal) => {
      const stderrTail = stderr.toString('utf8');
      if (code === 0) return settle(() => resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderrTail }));
      const how = code === null ? `was killed by ${signal ?? 'a signal'}` : `failed with exit code ${code}`;
      settle(() => reject(new ExecPluginError(withStderr(`exec: executable ${config.command} ${how}`, stderrTail))));
    });
  });
}

/** Kills a plugin's process group; it may be gone already. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already exited.
  }
}

function spawnError(config: ExecConfig, error: NodeJS.ErrnoException, stderrTail: string): ExecPluginError {
  if (error.code === 'ENOENT') {
    const hint = config.installHint === undefined ? '' : `\n\n${config.installHint}`;
    return new ExecPluginError(`exec: executable ${config.command} not found${hint}`, { cause: error });
  }
  return new ExecPluginError(withStderr(`exec: executable ${config.command} could not be started: ${error.message}`, stderrTail), { cause: error });
}

type Dict = Record<string, unknown>;

function optionalStatusString(status: Dict, key: string, fail: (message: string) => ExecPluginError): string | undefined {
  const value = status[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw fail(`status.${key} must be a string`);
  return value;
}

/** Checks the decoded answer the way client-go does, in the same order; never echoes stdout (it holds secrets). */
function checkAnswer(config: ExecConfig, stdout: string, stderrTail: string): ExecAnswer {
  const fail = (message: string): ExecPluginError => new ExecPluginError(withStderr(`exec plugin ${config.command}: ${message}`, stderrTail));
  let decoded: unknown;
  try {
    decoded = JSON.parse(stdout);
  } catch {
    throw fail('decoding stdout: the answer is not a JSON ExecCredential');
  }
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) throw fail('decoding stdout: the answer is not a JSON object');
  const answer = decoded as Dict;
  if (answer['apiVersion'] !== config.apiVersion) {
    throw fail(`is configured to use API version ${config.apiVersion}, plugin returned version ${String(answer['apiVersion'] ?? '(none)')}`);
  }
  if (answer['kind'] !== undefined && answer['kind'] !== 'ExecCredential') throw fail(`decoding stdout: kind ${String(answer['kind'])} is not ExecCredential`);
  const status = answer['status'];
  if (status === undefined || status === null) throw fail("didn't return a status field");
  if (typeof status !== 'object' || Array.isArray(status)) throw fail('status must be an object');
  const token = optionalStatusString(status as Dict, 'token', fail);
  const clientCertPem = optionalStatusString(status as Dict, 'clientCertificateData', fail);
  const clientKeyPem = optionalStatusString(status as Dict, 'clientKeyData', fail);
  if (token === undefined && clientCertPem === undefined && clientKeyPem === undefined) throw fail("didn't return a token or cert/key pair");
  if ((clientCertPem === undefined) !== (clientKeyPem === undefined)) throw fail('returned only certificate or key, not both');
  if (clientCertPem !== undefined && clientKeyPem !== undefined) checkKeyPair(clientCertPem, clientKeyPem, fail);
  const expiresAtMs = expiryOf(optionalStatusString(status as Dict, 'expirationTimestamp', fail), fail);
  return {
    ...(token === undefined ? {} : { token }),
    ...(clientCertPem === undefined ? {} : { clientCertPem }),
    ...(clientKeyPem === undefined ? {} : { clientKeyPem }),
    ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
  };
}

/** Refuses a certificate and key that do not parse or do not belong together (client-go: tls.X509KeyPair). */
function checkKeyPair(certPem: string, keyPem: string, fail: (message: string) => ExecPluginError): void {
  try {
    if (new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem))) return;
  } catch {
    throw fail('failed parsing client key/certificate');
  }
  throw fail('failed parsing client key/certificate: the key does not match the certificate');
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function expiryOf(timestamp: string | undefined, fail: (message: string) => ExecPluginError): number | undefined {
  if (timestamp === undefined) return undefined;
  const ms = Date.parse(timestamp);
  if (!rfc3339.test(timestamp) || Number.isNaN(ms)) throw fail(`status.expirationTimestamp ${JSON.stringify(timestamp)} is not an RFC 3339 time`);
  return ms;
}
