// ImagePolicyWebhook's configuration: `imagePolicy: {kubeConfigFile, allowTTL, denyTTL,
// retryBackoff, defaultAllow}`, bare (kube's legacy form) or inside `{apiVersion:
// imagepolicy.admission.<domain>/v1alpha1, kind: ImagePolicyWebhookConfiguration}`. allowTTL and
// denyTTL are seconds, retryBackoff milliseconds; 0 picks the default and -1 disables (a TTL of
// 0: nothing cached). Ranges and messages are kube's; its bounds are exclusive below.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { webhookEndpointFromKubeconfig } from '../../../authn/webhook/kubeconfig.ts';
import type { WebhookEndpoint } from '../../../authn/webhook/kubeconfig.ts';
import { formatGoDuration } from './go-duration.ts';

/** The settings the plugin runs with. */
export interface ImagePolicyConfig {
  readonly endpoint: WebhookEndpoint;
  readonly allowTtlMs: number;
  readonly denyTtlMs: number;
  readonly retryBackoffMs: number;
  readonly defaultAllow: boolean;
}

const msNs = 1e6;
const secondNs = 1e9;
const minuteNs = 60 * secondNs;

interface Bounds {
  readonly name: string;
  readonly scaleNs: number;
  readonly minNs: number;
  readonly maxNs: number;
  readonly defaultNs: number;
}

const backoff: Bounds = { name: 'backoff', scaleNs: msNs, minNs: 1, maxNs: 5 * minuteNs, defaultNs: 500 * msNs };
const allowCache: Bounds = { name: 'allow cache', scaleNs: secondNs, minNs: secondNs, maxNs: 30 * minuteNs, defaultNs: 5 * minuteNs };
const denyCache: Bounds = { name: 'deny cache', scaleNs: secondNs, minNs: secondNs, maxNs: 30 * minuteNs, defaultNs: 30 * secondNs };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** kube's normalizeConfigDuration: the setting in milliseconds. */
function normalized(value: unknown, field: string, bounds: Bounds): number {
  const raw = value ?? 0;
  if (typeof raw !== 'number' || !Number.isInteger(raw)) throw new Error(`ImagePolicyWebhook: imagePolicy.${field} must be an integer`);
  if (raw === -1) return 0;
  if (raw === 0) return bounds.defaultNs / msNs;
  const ns = raw * bounds.scaleNs;
  if (ns <= bounds.minNs || ns > bounds.maxNs) {
    throw new Error(`valid value is between ${formatGoDuration(bounds.minNs)} and ${formatGoDuration(bounds.maxNs)}, got ${formatGoDuration(ns)}`);
  }
  return ns / msNs;
}

function imagePolicySection(configuration: unknown, apiDomain: string): Record<string, unknown> {
  if (configuration === undefined || configuration === null) throw new Error('no config specified');
  if (!isRecord(configuration)) throw new Error('ImagePolicyWebhook: the configuration must be a mapping');
  const apiVersion = configuration['apiVersion'];
  if (apiVersion !== undefined && apiVersion !== `imagepolicy.admission.${apiDomain}/v1alpha1`) {
    throw new Error(`ImagePolicyWebhook: unknown apiVersion ${JSON.stringify(apiVersion)} (want imagepolicy.admission.${apiDomain}/v1alpha1)`);
  }
  const section = configuration['imagePolicy'];
  if (!isRecord(section)) throw new Error('ImagePolicyWebhook: imagePolicy must be a mapping');
  return section;
}

/** Reads the kubeconfig the section names; the back end must be reached over TLS. */
function endpointOf(section: Record<string, unknown>): WebhookEndpoint {
  const file = section['kubeConfigFile'];
  if (typeof file !== 'string' || file === '') throw new Error('ImagePolicyWebhook: imagePolicy.kubeConfigFile is required');
  const endpoint = webhookEndpointFromKubeconfig(readFileSync(file, 'utf8'), path.dirname(path.resolve(file)));
  if (endpoint.url.protocol !== 'https:') throw new Error(`ImagePolicyWebhook: the back end ${endpoint.url.href} must use https`);
  return endpoint;
}

/** Parses the configuration and reads its kubeconfig; throws an Error naming what is wrong. */
export function parseImagePolicyConfig(configuration: unknown, apiDomain: string): ImagePolicyConfig {
  const section = imagePolicySection(configuration, apiDomain);
  const defaultAllow = section['defaultAllow'] ?? false;
  if (typeof defaultAllow !== 'boolean') throw new Error('ImagePolicyWebhook: imagePolicy.defaultAllow must be a boolean');
  return {
    retryBackoffMs: normalized(section['retryBackoff'], 'retryBackoff', backoff),
    allowTtlMs: normalized(section['allowTTL'], 'allowTTL', allowCache),
    denyTtlMs: normalized(section['denyTTL'], 'denyTTL', denyCache),
    defaultAllow,
    endpoint: endpointOf(section),
  };
}
