// A CRD's converter (kube's CRConverterFactory.NewConverter and crConverter): the checks every
// conversion gets (both versions must be the CRD's), then the CRD's strategy: None changes only
// apiVersion, Webhook asks the conversion webhook.
import { ConversionError } from './errors.ts';
import { parseGroupVersion, showGroupVersion, showGroupVersionKind, stringField } from './group-version.ts';
import type { ConversionInput, Converter, ConverterDeps, ConvertOptions } from './converter-types.ts';
import { convertByNone } from './nop-converter.ts';
import { convertByWebhook, type WebhookConversion } from './webhook-converter.ts';

type Entry = Record<string, unknown>;

function entry(value: unknown): Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Entry) : {};
}

/** The webhook settings of `spec.conversion` (v1's `webhook`, or v1beta1's flat fields). */
function webhookOf(crd: Entry, conversion: Entry): WebhookConversion {
  const webhook = entry(conversion.webhook);
  const clientConfig = conversion.webhook !== undefined ? entry(webhook.clientConfig) : entry(conversion.webhookClientConfig);
  const versions = conversion.webhook !== undefined ? webhook.conversionReviewVersions : (conversion.conversionReviewVersions ?? ['v1beta1']);
  return { crdName: stringField(entry(crd.metadata), 'name'), clientConfig, conversionReviewVersions: Array.isArray(versions) ? versions : [] };
}

/** What one call converts, after kube's checks on the versions. */
function inputOf(group: string, versions: ReadonlySet<string>, objects: readonly Entry[], toApiVersion: string, options: ConvertOptions): ConversionInput {
  const first = objects[0] ?? {};
  const list = options.list !== undefined || objects.length !== 1;
  const apiVersion = options.list?.apiVersion ?? stringField(first, 'apiVersion');
  const kind = options.list?.kind ?? (list ? `${stringField(first, 'kind')}List` : stringField(first, 'kind'));
  const shown = showGroupVersionKind(apiVersion, kind);
  const to = parseGroupVersion(toApiVersion);
  const from = parseGroupVersion(apiVersion);
  if (to.group !== from.group) throw new ConversionError(`${shown} is unstructured and is not suitable for converting to ${JSON.stringify(toApiVersion)}`);
  if (to.group !== group || !versions.has(to.version)) throw new ConversionError(`request to convert CR to an invalid group/version: ${showGroupVersion(to)}`);
  if (from.group !== group || !versions.has(from.version)) throw new ConversionError(`request to convert CR from an invalid group/version: ${showGroupVersion(from)}`);
  if (list) {
    objects.forEach((o, i) => {
      const gv = parseGroupVersion(stringField(o, 'apiVersion'));
      if (gv.group !== group || !versions.has(gv.version)) throw new ConversionError(`request to convert CR list failed, list index ${i} has invalid group/version: ${showGroupVersion(gv)}`);
    });
  }
  return { objects, list, shown };
}

/** An object with nothing but apiVersion and kind (kube converts it without calling a webhook). */
function isEmptyObject(objects: readonly Entry[], list: boolean): boolean {
  const only = objects[0];
  return !list && only !== undefined && Object.keys(only).length === 2 && 'apiVersion' in only && 'kind' in only;
}

/**
 * The converter of `crd` (a CustomResourceDefinition object) by its `spec.conversion.strategy`
 * (None when absent). Throws a ConversionError for an unknown strategy.
 */
export function makeConverter(crd: Record<string, unknown>, deps: ConverterDeps = {}): Converter {
  const spec = entry(crd.spec);
  const group = stringField(spec, 'group');
  const versions = new Set((Array.isArray(spec.versions) ? spec.versions : []).map((v) => stringField(v, 'name')));
  if (versions.size === 0 && stringField(spec, 'version') !== '') versions.add(stringField(spec, 'version'));
  const conversion = entry(spec.conversion);
  const strategy = stringField(conversion, 'strategy') || 'None';
  if (strategy !== 'None' && strategy !== 'Webhook') throw new ConversionError(`unknown conversion strategy ${JSON.stringify(strategy)} for CRD ${stringField(entry(crd.metadata), 'name')}`);
  const webhook = strategy === 'Webhook' ? webhookOf(crd, conversion) : undefined;
  return {
    async convert(objects, toApiVersion, options = {}) {
      if (objects.length === 0) return [];
      const input = inputOf(group, versions, objects, toApiVersion, options);
      if (webhook === undefined || isEmptyObject(objects, input.list)) return convertByNone(objects, toApiVersion);
      return convertByWebhook(webhook, input, toApiVersion, deps);
    },
  };
}
