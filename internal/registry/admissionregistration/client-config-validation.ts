// ValidateWebhookURL and ValidateWebhookService of k8s.io/apiserver's util/webhook (1.28): where
// a webhook may be called, with kube's messages and field paths.
import { invalidValue, required, type FieldError } from '../schema/field-errors.ts';
import { dns1123Subdomain } from '../schema/name-validation.ts';
import { parseGoUrl } from './go-url.ts';

const desiredForm = '; desired format: https://host[/path]';

/** Validates `clientConfig.url` at `path`: https, a host, no user information, fragment or query. */
export function validateWebhookUrl(url: string, path: string): FieldError[] {
  let parsed;
  try {
    parsed = parseGoUrl(url);
  } catch (err) {
    return [required(path, `url must be a valid URL: ${(err as Error).message}${desiredForm}`)];
  }
  const errors: FieldError[] = [];
  if (parsed.scheme !== 'https') errors.push(invalidValue(path, parsed.scheme, `'https' is the only allowed URL scheme${desiredForm}`));
  if (parsed.host === '') errors.push(invalidValue(path, parsed.host, `host must be provided${desiredForm}`));
  if (parsed.user !== undefined) errors.push(invalidValue(path, parsed.user, 'user information is not permitted in the URL'));
  if (parsed.fragment !== '') errors.push(invalidValue(path, parsed.fragment, 'fragments are not permitted in the URL'));
  if (parsed.rawQuery !== '') errors.push(invalidValue(path, parsed.rawQuery, 'query parameters are not permitted in the URL'));
  return errors;
}

/** Validates a service path: each segment a DNS-1123 subdomain, `/` and '' allowed. */
function validateServicePath(urlPath: string, path: string): FieldError[] {
  if (urlPath === '/' || urlPath === '') return [];
  if (urlPath === '//') return [invalidValue(path, urlPath, 'segment[0] may not be empty')];
  const errors: FieldError[] = [];
  if (!urlPath.startsWith('/')) errors.push(invalidValue(path, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errors.push(invalidValue(path, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const problem of dns1123Subdomain(step)) errors.push(invalidValue(path, urlPath, `segment[${i}]: ${problem}`));
  });
  return errors;
}

/** Validates `clientConfig.service` at `path` (after defaulting: port is set). */
export function validateWebhookService(service: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof service.name !== 'string' || service.name === '') errors.push(required(`${path}.name`, 'service name is required'));
  if (typeof service.namespace !== 'string' || service.namespace === '') errors.push(required(`${path}.namespace`, 'service namespace is required'));
  const port = typeof service.port === 'number' ? service.port : 0;
  if (!Number.isInteger(port) || port < 1 || port > 65535) errors.push(invalidValue(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (typeof service.path === 'string') errors.push(...validateServicePath(service.path, `${path}.path`));
  return errors;
}
