// The Webhook strategy (kube's webhookConverter): the objects not yet at the desired version go to
// the CRD's conversion webhook in one ConversionReview; the answer is checked as kube checks it and
// each converted object takes the place of its original, with the original's metadata except
// labels and annotations. Every failure is a ConversionError in kube's words.
import { randomUUID } from 'node:crypto';
import { checkSameIdentity, restoreMetadata } from './converted-objects.ts';
import { chooseReviewVersion, conversionReview, convertedObjectsOf, unexpectedStatusMessage } from './conversion-review.ts';
import { ConversionError } from './errors.ts';
import { parseGroupVersion, showGroupVersion, stringField } from './group-version.ts';
import { conversionSlowCallBaseMs, conversionSlowCallPerObjectMs, conversionWebhookTimeoutMs } from './limits.ts';
import { postConversionReview, WebhookPostError, type WebhookPost } from './webhook-post.ts';
import type { ConversionInput, ConverterDeps, DialAddress } from './converter-types.ts';

type Entry = Record<string, unknown>;

/** A CRD's `spec.conversion.webhook` as this converter reads it (v1, or v1beta1's flat fields). */
export interface WebhookConversion {
  readonly crdName: string;
  readonly clientConfig: Entry;
  readonly conversionReviewVersions: readonly unknown[];
}

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole number of milliseconds as Go's Duration.String() writes it (`30s`, `500ms`, `1m30s`). */
function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = `${(ms % 60_000) / 1000}s`;
  return minutes === 0 ? seconds : `${minutes}m${seconds}`;
}

/** Where to post: the URL, or the service's DNS name dialled at the resolver's address. */
async function targetOf(clientConfig: Entry, body: string, ca: string | undefined, deps: ConverterDeps, timeoutMs: number): Promise<WebhookPost> {
  const query = `?timeout=${goDuration(timeoutMs)}`;
  const service = clientConfig.service;
  if (isEntry(service)) {
    const [namespace, name] = [stringField(service, 'namespace'), stringField(service, 'name')];
    const port = typeof service.port === 'number' ? service.port : 443;
    const path = stringField(service, 'path') || '/';
    const authority = `${name}.${namespace}.svc:${port}`;
    const shown = `https://${authority}${path}${query}`;
    let dial: DialAddress | undefined;
    try {
      dial = deps.resolveService === undefined ? undefined : await deps.resolveService(namespace, name, port);
    } catch (err) {
      throw new WebhookPostError(`Post ${JSON.stringify(shown)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { url: new URL(shown), shown, authority, ...(dial === undefined ? {} : { dial }), body, ...(ca === undefined ? {} : { ca }), timeoutMs };
  }
  const url = stringField(clientConfig, 'url');
  if (url === '') throw new Error('webhook configuration must have either service or URL');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new Error(`Unparsable URL: ${(err as Error).message}`);
  }
  // Go keeps the authority as written (an explicit :443 too); WHATWG URL drops a default port.
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1]?.replace(/^.*@/, '') ?? parsed.host;
  parsed.search = query;
  return { url: parsed, shown: `https://${authority}${parsed.pathname}${query}`, authority, body, ...(ca === undefined ? {} : { ca }), timeoutMs };
}

/** Posts the review and returns the decoded answer, or throws an Error with client-go's text. */
async function exchange(webhook: WebhookConversion, review: Entry, deps: ConverterDeps, timeoutMs: number): Promise<unknown> {
  const caBundle = stringField(webhook.clientConfig, 'caBundle');
  const ca = caBundle === '' ? undefined : Buffer.from(caBundle, 'base64').toString('utf8');
  const answer = await postConversionReview(await targetOf(webhook.clientConfig, JSON.stringify(review), ca, deps, timeoutMs));
  if (answer.status < 200 || answer.status > 299) throw new Error(unexpectedStatusMessage(answer.status, answer.body));
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch (err) {
    throw new Error(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

/** One converted object checked against the one sent; `at` names it in messages as kube does. */
function acceptConverted(original: Entry, returned: unknown, toApiVersion: string, at: { readonly index: number; readonly list: boolean; readonly shown: string }): Entry {
  const prefix = `conversion webhook for ${at.shown} returned invalid ${at.list ? 'converted ' : ''}object at index ${at.index}`;
  if (!isEntry(returned) || stringField(returned, 'kind') === '') {
    const problem = `Object 'Kind' is missing in '${JSON.stringify(returned)}'`;
    // kube reports a list's bad item at the index before counting it, a single object's bare.
    throw new ConversionError(at.list ? `conversion webhook for ${at.shown} returned invalid converted object at index ${at.index - 1}: ${problem}` : problem);
  }
  const expected = showGroupVersion(parseGroupVersion(toApiVersion));
  const received = showGroupVersion(parseGroupVersion(stringField(returned, 'apiVersion')));
  if (expected !== received) throw new ConversionError(`${prefix}: invalid groupVersion (expected ${expected}, received ${received})`);
  const [kind, returnedKind] = [stringField(original, 'kind'), stringField(returned, 'kind')];
  if (kind !== returnedKind) throw new ConversionError(`${prefix}: invalid kind (expected ${kind}, received ${returnedKind})`);
  try {
    checkSameIdentity(original, returned);
  } catch (err) {
    throw new ConversionError(`conversion webhook for ${at.shown} returned invalid ${at.list ? `converted object at index ${at.index}` : 'object'}: ${(err as Error).message}`);
  }
  try {
    return restoreMetadata(original, returned);
  } catch (err) {
    throw new ConversionError(`conversion webhook for ${at.shown} returned invalid metadata${at.list ? ` in object at index ${at.index}` : ''}: ${(err as Error).message}`);
  }
}

/**
 * Converts `input` through the webhook. Objects already at `toApiVersion` are neither sent nor
 * copied; each other one is replaced, where it stands, by its checked conversion.
 */
export async function convertByWebhook(webhook: WebhookConversion, input: ConversionInput, toApiVersion: string, deps: ConverterDeps): Promise<Entry[]> {
  const pending = input.objects.filter((o) => stringField(o, 'apiVersion') !== toApiVersion);
  if (pending.length === 0) return [...input.objects];
  const version = chooseReviewVersion(webhook.conversionReviewVersions);
  if (version === undefined) throw new ConversionError('no supported conversion review versions');
  const uid = randomUUID();
  const timeoutMs = deps.timeoutMs ?? conversionWebhookTimeoutMs;
  const started = Date.now();
  const apiDomain = deps.apiDomain ?? 'k8s.io';
  let converted: unknown[];
  try {
    const answer = await exchange(webhook, conversionReview(apiDomain, version, uid, toApiVersion, pending), deps, timeoutMs);
    converted = convertedObjectsOf(apiDomain, version, uid, answer);
  } catch (err) {
    throw new ConversionError(`conversion webhook for ${input.shown} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const elapsedMs = Date.now() - started;
  if (elapsedMs > conversionSlowCallBaseMs + conversionSlowCallPerObjectMs * pending.length) {
    deps.log?.(`Call conversion webhook (custom-resource-definition=${webhook.crdName} desired-api-version=${toApiVersion} object-count=${pending.length} UID=${uid}) took ${elapsedMs}ms`);
  }
  if (converted.length !== pending.length) throw new ConversionError(`conversion webhook for ${input.shown} returned ${converted.length} objects, expected ${pending.length}`);
  let next = 0;
  return input.objects.map((original) => {
    if (stringField(original, 'apiVersion') === toApiVersion) return original;
    const returned = converted[next++];
    // kube counts a list's item before checking it, so its messages name the index after it.
    return acceptConverted(original, returned, toApiVersion, { index: input.list ? next : 0, list: input.list, shown: input.shown });
  });
}
