/**
 * The options of each verb, read from the query (query-params.ts) and validated as kube-apiserver's
 * handlers validate them (k8s.io/apimachinery meta/v1/validation): a value the parameter codec
 * cannot convert is a 400, an invalid option a 422 naming its field, such as
 * `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{""}: supported values: "All"`.
 */
import { invalid, type StatusCause, type StatusError } from '../../registry/errors/status-error.ts';
import { goQuote, int64Param, isGoPrintable, optionalBoolParam } from '../query-params.ts';
import type { RequestContext } from './request-context.ts';

/** The options kinds whose validation errors a request may get. */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/** 422 for invalid options: `<kind>.meta.<domain> "" is invalid: <field>: <problem>`. */
export function invalidOptions(apiDomain: string, kind: OptionsKind, causes: readonly StatusCause[]): StatusError {
  return invalid(kind, `meta.${apiDomain}`, '', causes);
}

/** The longest field manager name, in bytes (FieldManagerMaxLength). */
const fieldManagerBytesMax = 128;

const applyPatchType = 'application/apply-patch+yaml';

/** ValidateDryRun: every value (all of them count) must be `All`; none is no dry run. */
export function dryRunCauses(values: readonly string[]): StatusCause[] {
  if (values.every((v) => v === 'All')) return [];
  return [{ reason: 'FieldValueNotSupported', field: 'dryRun', message: `Unsupported value: []string{${values.map(goQuote).join(', ')}}: supported values: "All"` }];
}

/** ValidateFieldManager: at most 128 bytes, printable characters only (positions in bytes). */
function fieldManagerCauses(manager: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (Buffer.byteLength(manager, 'utf8') > fieldManagerBytesMax) {
    causes.push({ reason: 'FieldValueTooLong', field: 'fieldManager', message: `Too long: must have at most ${fieldManagerBytesMax} bytes` });
  }
  let position = 0;
  for (const ch of manager) {
    if (!isGoPrintable(ch)) {
      const rune = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
      causes.push({ reason: 'FieldValueInvalid', field: 'fieldManager', message: `Invalid value: ${goQuote(manager)}: invalid character ${rune} (at position ${position})` });
    }
    position += Buffer.byteLength(ch, 'utf8');
  }
  return causes;
}

/** ValidateFieldValidation: empty, Ignore, Strict or Warn. */
function fieldValidationCauses(value: string): StatusCause[] {
  if (['', 'Ignore', 'Strict', 'Warn'].includes(value)) return [];
  return [{ reason: 'FieldValueNotSupported', field: 'fieldValidation', message: `Unsupported value: ${goQuote(value)}: supported values: "", "Ignore", "Strict", "Warn"` }];
}

/**
 * Validates the CreateOptions, UpdateOptions or PatchOptions of a write (by its verb) as
 * ValidateCreateOptions / ValidateUpdateOptions / ValidatePatchOptions do, all problems in one 422.
 * A patch names its media type: `force` is for apply patches only, which need a `fieldManager`.
 */
export function checkWriteOptions(ctx: RequestContext, patchType?: string): void {
  const q = ctx.query;
  const kind: OptionsKind = ctx.info.verb === 'create' ? 'CreateOptions' : ctx.info.verb === 'patch' ? 'PatchOptions' : 'UpdateOptions';
  const manager = q.get('fieldManager') ?? '';
  const causes: StatusCause[] = [];
  if (kind === 'PatchOptions' && patchType !== applyPatchType && q.has('force')) causes.push({ reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' });
  if (kind === 'PatchOptions' && patchType === applyPatchType && manager === '') causes.push({ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' });
  causes.push(...fieldManagerCauses(manager), ...dryRunCauses(q.getAll('dryRun')), ...fieldValidationCauses(q.get('fieldValidation') ?? ''));
  if (causes.length > 0) throw invalidOptions(ctx.apiDomain, kind, causes);
}

/** DeleteOptions as the client gave them, from the body or from the query. */
export interface RequestedDeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
  readonly orphanDependents?: boolean;
  readonly dryRun: readonly string[];
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
}

/** DeleteOptions from the query (a delete without a body); 400 for a value the codec cannot convert. */
export function deleteOptionsFromQuery(query: URLSearchParams): RequestedDeleteOptions {
  const grace = int64Param(query, 'gracePeriodSeconds');
  const policy = query.get('propagationPolicy');
  const orphan = optionalBoolParam(query, 'orphanDependents');
  return {
    dryRun: query.getAll('dryRun'),
    ...(grace === undefined ? {} : { gracePeriodSeconds: grace }),
    ...(policy === null ? {} : { propagationPolicy: policy }),
    ...(orphan === undefined ? {} : { orphanDependents: orphan }),
  };
}

/**
 * ValidateDeleteOptions: orphanDependents and propagationPolicy exclude each other, the policy is
 * Foreground, Background or Orphan, dryRun only `All`. 422 naming the field otherwise.
 */
export function checkDeleteOptions(apiDomain: string, opts: RequestedDeleteOptions): void {
  const causes: StatusCause[] = [];
  const policy = opts.propagationPolicy;
  if (policy !== undefined && opts.orphanDependents !== undefined) {
    causes.push({ reason: 'FieldValueInvalid', field: 'propagationPolicy', message: `Invalid value: ${goQuote(policy)}: orphanDependents and deletionPropagation cannot be both set` });
  }
  if (policy !== undefined && !['Foreground', 'Background', 'Orphan'].includes(policy)) {
    causes.push({ reason: 'FieldValueNotSupported', field: 'propagationPolicy', message: `Unsupported value: ${goQuote(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"` });
  }
  causes.push(...dryRunCauses(opts.dryRun));
  if (causes.length > 0) throw invalidOptions(apiDomain, 'DeleteOptions', causes);
}

/** The ListOptions of a list, watch or deletecollection, as the parameter codec converts them. */
export interface ListQueryOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly timeoutSeconds?: number;
  readonly allowWatchBookmarks: boolean;
  readonly sendInitialEvents?: boolean;
}

/**
 * Every ListOptions parameter of the query, converted in the codec's order, so that a list gets a
 * 400 for a `timeoutSeconds` it does not use, as it does from kube-apiserver. Empty strings are absent.
 */
export function listOptionsOf(query: URLSearchParams): ListQueryOptions {
  const text = (name: string): Record<string, string> => {
    const value = query.get(name);
    return value === null || value === '' ? {} : { [name]: value };
  };
  const timeoutSeconds = int64Param(query, 'timeoutSeconds');
  const limit = int64Param(query, 'limit');
  const sendInitialEvents = optionalBoolParam(query, 'sendInitialEvents');
  const resourceVersion = query.get('resourceVersion');
  return {
    ...text('labelSelector'),
    ...text('fieldSelector'),
    ...(resourceVersion === null ? {} : { resourceVersion }),
    ...text('resourceVersionMatch'),
    ...text('continue'),
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    ...(limit === undefined ? {} : { limit }),
    allowWatchBookmarks: optionalBoolParam(query, 'allowWatchBookmarks') ?? false,
    ...(sendInitialEvents === undefined ? {} : { sendInitialEvents }),
  };
}
