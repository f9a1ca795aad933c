// Applies a mutating webhook's answer to the object (the tail of kube's callAttrMutatingHook):
// only JSON Patch; an undecodable patch is the webhook's failure, a patch that does not apply or
// touches a request without an object is the server's (500), as kube reports them.
import { jsonEqual } from '../../patch/json-value.ts';
import { applyJsonPatch } from '../../registry/generic/json-patch.ts';
import { StatusError } from '../../registry/errors/status-error.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { AdmissionResponse } from './admission-review.ts';
import { CallingWebhookError, rejectionStatus } from './errors.ts';

/** The outcome of a patch: the new object (undefined when nothing was applied) and the decoded operations. */
export interface PatchOutcome {
  readonly object: KObject | undefined;
  readonly changed: boolean;
  readonly operations: readonly Record<string, unknown>[];
}

const nothing: PatchOutcome = { object: undefined, changed: false, operations: [] };

function decodePatch(webhookName: string, text: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CallingWebhookError(webhookName, `received undecodable patch in webhook response: ${(err as Error).message}`, 503);
  }
  if (!Array.isArray(parsed) || !parsed.every((op) => typeof op === 'object' && op !== null && !Array.isArray(op))) {
    throw new CallingWebhookError(webhookName, 'received undecodable patch in webhook response: json: cannot unmarshal into Go value of type jsonpatch.Patch', 503);
  }
  return parsed as Record<string, unknown>[];
}

/** Applies `result`'s patch to `object` (a copy); throws CallingWebhookError or a 500 StatusError. */
export function applyWebhookPatch(webhookName: string, result: AdmissionResponse, object: KObject | undefined): PatchOutcome {
  if (result.patch === '') return nothing;
  const operations = decodePatch(webhookName, result.patch);
  if (operations.length === 0) return nothing;
  if (object === undefined) {
    const message = `admission webhook ${JSON.stringify(webhookName)} attempted to modify the object, which is not supported for this operation`;
    throw new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ reason: '', message }] });
  }
  if (result.patchType !== 'JSONPatch') {
    throw new CallingWebhookError(webhookName, `unsupported patch type ${JSON.stringify(result.patchType)}`, rejectionStatus(webhookName, result.result).code);
  }
  let patched: unknown;
  try {
    patched = applyJsonPatch(object, operations);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ reason: '', message }] });
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched) || typeof (patched as KObject).metadata !== 'object') {
    const message = `admission webhook ${JSON.stringify(webhookName)} patched the object into something that is not an object with metadata`;
    throw new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ reason: '', message }] });
  }
  return { object: patched as KObject, changed: !jsonEqual(object, patched), operations };
}
