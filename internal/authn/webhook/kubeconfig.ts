// The token webhook's configuration file: a kubeconfig naming the webhook as the cluster and our
// credentials as the user (client certificate or bearer token). Relative paths are relative to the
// file, as client-go resolves them.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { TlsClientSettings } from '../https-client.ts';

/** Where and how to call the webhook. */
export interface WebhookEndpoint {
  readonly url: URL;
  readonly tls: TlsClientSettings;
  /** A bearer token we present to the webhook, if the kubeconfig user has one. */
  readonly bearerToken?: string;
}

type Entry = Record<string, unknown>;

function isRecord(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function named(list: unknown, name: string | undefined, field: string): Entry | undefined {
  if (!Array.isArray(list)) return undefined;
  const entries = list.filter(isRecord);
  const entry = name === undefined ? entries[0] : entries.find((e) => e['name'] === name);
  const value = entry?.[field];
  return isRecord(value) ? value : undefined;
}

function stringField(entry: Entry | undefined, name: string): string | undefined {
  const value = entry?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Inline base64 data, else the named file's text, else undefined. */
function dataOrFile(entry: Entry | undefined, dataField: string, fileField: string, directory: string): string | undefined {
  const data = stringField(entry, dataField);
  if (data !== undefined) return Buffer.from(data, 'base64').toString('utf8');
  const file = stringField(entry, fileField);
  return file === undefined ? undefined : readFileSync(path.resolve(directory, file), 'utf8');
}

/**
 * Reads the endpoint from kubeconfig text: the current context's cluster and user, or the first
 * of each when there is no current context. Throws when there is no cluster server.
 */
export function webhookEndpointFromKubeconfig(text: string, directory: string): WebhookEndpoint {
  const config: unknown = parse(text);
  if (!isRecord(config)) throw new Error('webhook kubeconfig is not a mapping');
  const currentName = stringField(config, 'current-context');
  const context = currentName === undefined ? undefined : named(config['contexts'], currentName, 'context');
  if (currentName !== undefined && context === undefined) throw new Error(`webhook kubeconfig: context ${JSON.stringify(currentName)} not found`);
  const cluster = named(config['clusters'], stringField(context, 'cluster'), 'cluster');
  const user = named(config['users'], stringField(context, 'user'), 'user');
  const server = stringField(cluster, 'server');
  if (server === undefined) throw new Error('webhook kubeconfig: the cluster has no server');
  const url = new URL(server);
  const ca = dataOrFile(cluster, 'certificate-authority-data', 'certificate-authority', directory);
  const cert = dataOrFile(user, 'client-certificate-data', 'client-certificate', directory);
  const key = dataOrFile(user, 'client-key-data', 'client-key', directory);
  const serverName = stringField(cluster, 'tls-server-name');
  const token = stringField(user, 'token') ?? (stringField(user, 'tokenFile') && readFileSync(path.resolve(directory, stringField(user, 'tokenFile')!), 'utf8').trim());
  const tls: TlsClientSettings = {
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { clientCertificate: cert }),
    ...(key === undefined ? {} : { clientKey: key }),
    ...(serverName === undefined ? {} : { serverName }),
    ...(cluster?.['insecure-skip-tls-verify'] === true ? { insecureSkipTlsVerify: true } : {}),
  };
  return { url, tls, ...(token ? { bearerToken: token } : {}) };
}
