// ImagePolicyWebhook: before a pod (or its ephemeral containers) is stored, an image policy back
// end reviews its images. Answers are cached by the review's spec (allowed for allowTTL, denied
// for denyTTL); a back end that cannot answer refuses the pod unless defaultAllow, which lets it
// through and marks the request's audit record `failed-open`.
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { StatusError } from '../../../registry/errors/status-error.ts';
import { askBackend } from './backend-client.ts';
import { parseImagePolicyConfig } from './config.ts';
import type { ImagePolicyConfig } from './config.ts';
import { ExpiringCache } from './expiring-cache.ts';
import { imageReviewBody, specJson } from './image-review.ts';
import type { ImageReviewSpec, ImageReviewStatus } from './image-review.ts';

/** The plugin's name as kube-apiserver registers it. */
export const imagePolicyWebhookName = 'ImagePolicyWebhook';

/** Answers kept at most (kube's LRUExpireCache size). */
export const reviewCacheEntriesMax = 1024;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The images under review: containers then init containers, or the ephemeral containers. */
function images(spec: Json, subresource: string): { image: string }[] {
  const lists = subresource === 'ephemeralcontainers' ? ['ephemeralContainers'] : ['containers', 'initContainers'];
  return lists.flatMap((list) => (Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [])).map((c) => ({ image: isRecord(c) && typeof c['image'] === 'string' ? c['image'] : '' }));
}

function reviewSpec(attributes: AdmissionAttributes, pod: Json & { metadata: { annotations?: Record<string, string> } }, apiDomain: string): ImageReviewSpec {
  const marker = `.image-policy.${apiDomain}/`;
  const annotations = Object.fromEntries(Object.entries(pod.metadata.annotations ?? {}).filter(([key]) => key.includes(marker)));
  return { containers: images(isRecord(pod['spec']) ? pod['spec'] : {}, attributes.subresource), annotations, namespace: attributes.namespace };
}

function plugin(deps: AdmissionDeps, config: ImagePolicyConfig): AdmissionPlugin {
  const auditPrefix = `${imagePolicyWebhookName.toLowerCase()}.image-policy.${deps.apiDomain}/`;
  const cache = new ExpiringCache<ImageReviewStatus>(reviewCacheEntriesMax, deps.clock);

  /** The back end's answer, or undefined when it failed and defaultAllow let the pod through. */
  const review = async (attributes: AdmissionAttributes, spec: ImageReviewSpec): Promise<ImageReviewStatus | undefined> => {
    const key = specJson(spec);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    try {
      const status = await askBackend(config, imageReviewBody(spec, deps.apiDomain));
      cache.add(key, status, status.allowed ? config.allowTtlMs : config.denyTtlMs);
      return status;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log(`error contacting webhook backend: ${message}`);
      if (!config.defaultAllow) throw admissionForbidden(attributes, message);
      attributes.addAnnotation(`${auditPrefix}failed-open`, 'true');
      return undefined;
    }
  };

  const validate = async (attributes: AdmissionAttributes): Promise<void> => {
    const { group, resource } = attributes.resource;
    const subresource = attributes.subresource;
    if ((subresource !== '' && subresource !== 'ephemeralcontainers') || group !== '' || resource !== 'pods') return;
    const pod = attributes.object;
    if (pod === undefined) throw new StatusError(400, 'BadRequest', 'Resource was marked with kind Pod but was unable to be converted');
    const status = await review(attributes, reviewSpec(attributes, pod, deps.apiDomain));
    if (status === undefined) return;
    for (const [key, value] of Object.entries(status.auditAnnotations)) attributes.addAnnotation(`${auditPrefix}${key}`, value);
    if (status.allowed) return;
    throw admissionForbidden(attributes, status.reason === '' ? 'one or more images rejected by webhook backend' : `image policy webhook backend denied one or more images: ${status.reason}`);
  };

  return { name: imagePolicyWebhookName, handles: (operation) => operation === 'CREATE' || operation === 'UPDATE', validate };
}

/**
 * Makes ImagePolicyWebhook. Configuration (required): `{imagePolicy: {kubeConfigFile, allowTTL,
 * denyTTL, retryBackoff, defaultAllow}}`, optionally with `apiVersion:
 * imagepolicy.admission.<domain>/v1alpha1` and `kind: ImagePolicyWebhookConfiguration`. Reads the
 * kubeconfig at once; throws on a missing or malformed configuration.
 */
export const imagePolicyWebhookPlugin: PluginFactory = (deps, configuration) => plugin(deps, parseImagePolicyConfig(configuration, deps.apiDomain));
