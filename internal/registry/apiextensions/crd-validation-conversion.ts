// validateCustomResourceConversion of apiextensions-apiserver 1.28, on the v1 object: kube checks
// its internal form, so errors name `spec.conversion.webhookClientConfig` and
// `spec.conversion.conversionReviewVersions` (v1's `webhook.clientConfig` and
// `webhook.conversionReviewVersions`).
import { validateWebhookService, validateWebhookUrl } from '../admissionregistration/client-config-validation.ts';
import { dns1035Label } from '../admissionregistration/go-values.ts';
import { forbidden, invalidShown, invalidValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { goStrings } from './schema/go-values.ts';
import { isObject } from './schema/schema-props.ts';

/** The ConversionReview versions this server (and the one before it) understands. */
export const acceptedConversionReviewVersions = ['v1', 'v1beta1'];

/** Whether a list of ConversionReview versions is empty or names one this server understands. */
export function hasValidConversionReviewVersionOrEmpty(versions: readonly unknown[]): boolean {
  return versions.length === 0 || versions.some((v) => acceptedConversionReviewVersions.includes(String(v)));
}

function validateReviewVersions(versions: readonly unknown[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [required(path)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((raw, i) => {
    const v = String(raw);
    if (seen.has(v)) {
      errors.push(invalidValue(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const p of dns1035Label(v)) errors.push(invalidValue(`${path}[${i}]`, v, p));
    if (acceptedConversionReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errors.push(invalidShown(path, goStrings(versions.map(String)), `must include at least one of ${[...acceptedConversionReviewVersions].sort().join(', ')}`));
  return errors;
}

/** The conversion settings of a v1 CRD's spec (`spec.conversion`), kube's checks and paths. */
export function validateConversion(conversion: unknown, requireRecognizedVersion: boolean): FieldError[] {
  if (!isObject(conversion)) return [];
  const path = 'spec.conversion';
  const strategy = typeof conversion.strategy === 'string' ? conversion.strategy : '';
  const errors: FieldError[] = [];
  if (strategy === '') errors.push(required(`${path}.strategy`));
  else if (strategy !== 'None' && strategy !== 'Webhook') errors.push(notSupported(`${path}.strategy`, strategy, ['None', 'Webhook']));
  const webhook = isObject(conversion.webhook) ? conversion.webhook : undefined;
  const clientConfig = webhook !== undefined && isObject(webhook.clientConfig) ? webhook.clientConfig : undefined;
  const reviewVersions = webhook !== undefined && Array.isArray(webhook.conversionReviewVersions) ? (webhook.conversionReviewVersions as unknown[]) : [];
  if (strategy === 'Webhook') {
    const at = `${path}.webhookClientConfig`;
    if (clientConfig === undefined) errors.push(required(at, 'required when strategy is set to Webhook'));
    else {
      const hasUrl = clientConfig.url !== undefined && clientConfig.url !== null;
      const hasService = isObject(clientConfig.service);
      if (hasUrl === hasService) errors.push(required(at, 'exactly one of url or service is required'));
      else if (hasUrl) errors.push(...validateWebhookUrl(String(clientConfig.url), `${at}.url`));
      else errors.push(...validateWebhookService(clientConfig.service as Record<string, unknown>, `${at}.service`));
    }
    errors.push(...validateReviewVersions(reviewVersions, requireRecognizedVersion, `${path}.conversionReviewVersions`));
  } else {
    if (clientConfig !== undefined) errors.push(forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errors.push(forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errors;
}
