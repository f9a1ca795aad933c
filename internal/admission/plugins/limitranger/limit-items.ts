// A LimitRange's items as the plugin reads them, with the defaults kube-apiserver stores them with
// (SetDefaults_LimitRangeItem): a Container item's default limit falls back to its max, and its
// default request to the default limit, else to the min. Applying them here keeps the plugin
// right whether or not the registry already stored them (applying them twice changes nothing).
import type { KObject } from '../../../registry/schema/declaration.ts';

/** Resource name -> quantity text, as the LimitRange spells it. */
export type QuantityMap = Readonly<Record<string, unknown>>;

/** One entry of spec.limits. */
export interface LimitItem {
  readonly type: string;
  readonly min: QuantityMap;
  readonly max: QuantityMap;
  readonly default: QuantityMap;
  readonly defaultRequest: QuantityMap;
  readonly maxLimitRequestRatio: QuantityMap;
}

type Json = Record<string, unknown>;

function mapAt(item: Json, key: string): Record<string, unknown> {
  const v = item[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...(v as Json) } : {};
}

function fillFrom(target: Record<string, unknown>, source: QuantityMap): void {
  for (const [k, v] of Object.entries(source)) if (!Object.hasOwn(target, k)) target[k] = v;
}

function itemOf(raw: Json): LimitItem {
  const type = typeof raw.type === 'string' ? raw.type : '';
  const min = mapAt(raw, 'min');
  const max = mapAt(raw, 'max');
  const defaults = mapAt(raw, 'default');
  const defaultRequest = mapAt(raw, 'defaultRequest');
  if (type === 'Container') {
    fillFrom(defaults, max);
    fillFrom(defaultRequest, defaults);
    fillFrom(defaultRequest, min);
  }
  return { type, min, max, default: defaults, defaultRequest, maxLimitRequestRatio: mapAt(raw, 'maxLimitRequestRatio') };
}

/** The items of a LimitRange's spec.limits, defaulted; never mutates the LimitRange. */
export function limitItems(limitRange: KObject): LimitItem[] {
  const spec = limitRange.spec as Json | undefined;
  const limits = Array.isArray(spec?.limits) ? (spec.limits as unknown[]) : [];
  return limits.filter((l): l is Json => typeof l === 'object' && l !== null).map(itemOf);
}

/** A map's names in byte order: kube walks Go maps in random order, this walks them in a fixed one. */
export function sortedNames(map: QuantityMap): string[] {
  return Object.keys(map).sort();
}
