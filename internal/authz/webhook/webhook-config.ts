// The `--authorization-webhook-config-file`: a kubeconfig naming the webhook server, its CA and the
// client credential the API server presents (as kube-apiserver reads it, current-context first).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';

/** Where and how to reach the webhook. */
export interface WebhookConnection {
  readonly server: string;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly token?: string;
  readonly insecureSkipTlsVerify: boolean;
}

type Named = Record<string, unknown>;

function pick(list: unknown, name: unknown, field: string): Record<string, unknown> | undefined {
  if (!Array.isArray(list)) return undefined;
  const items = list as Named[];
  const found = name === undefined ? items[0] : items.find((i) => i.name === name);
  const inner = found?.[field];
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : undefined;
}

function fileOrData(section: Record<string, unknown> | undefined, fileField: string, base: string): Buffer | undefined {
  if (section === undefined) return undefined;
  const data = section[`${fileField}-data`];
  if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64');
  const file = section[fileField];
  if (typeof file === 'string' && file !== '') return readFileSync(isAbsolute(file) ? file : resolve(base, file));
  return undefined;
}

/** Reads a webhook kubeconfig from text; relative file paths are resolved against `baseDir`. Throws when no server is named. */
export function parseWebhookKubeconfig(text: string, baseDir: string): WebhookConnection {
  const doc = (parse(text) ?? {}) as Record<string, unknown>;
  const contextName = doc['current-context'];
  const context = typeof contextName === 'string' && contextName !== '' ? pick(doc.contexts, contextName, 'context') : undefined;
  const cluster = pick(doc.clusters, context?.cluster, 'cluster');
  const user = pick(doc.users, context?.user, 'user');
  const server = cluster?.server;
  if (typeof server !== 'string' || server === '') throw new Error('webhook kubeconfig: no cluster server');
  const token = typeof user?.token === 'string' && user.token !== '' ? user.token : undefined;
  return {
    server,
    ca: fileOrData(cluster, 'certificate-authority', baseDir),
    cert: fileOrData(user, 'client-certificate', baseDir),
    key: fileOrData(user, 'client-key', baseDir),
    ...(token === undefined ? {} : { token }),
    insecureSkipTlsVerify: cluster?.['insecure-skip-tls-verify'] === true,
  };
}

/** Reads the webhook kubeconfig file. */
export function loadWebhookKubeconfig(path: string): WebhookConnection {
  return parseWebhookKubeconfig(readFileSync(path, 'utf8'), dirname(path));
}
