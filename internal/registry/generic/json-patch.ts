import { applyPatch, Pointer, type Operation } from 'rfc6902';
import { StatusError } from '../errors/status-error.ts';
import { jsonPatchCopyBytesMax, jsonPatchOperationsMax } from './limits.ts';

const ops = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

function isOperation(v: unknown): v is Operation {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.op === 'string' && ops.has(o.op) && typeof o.path === 'string';
}

/**
 * Applies an RFC 6902 JSON Patch to a copy of `target`. Fails on the first failed operation
 * (including `test`, and a copy past jsonPatchCopyBytesMax), with 422 as Kubernetes does; a
 * malformed document is a 400, more than jsonPatchOperationsMax operations a 413.
 */
export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new StatusError(400, 'BadRequest', 'the JSON patch must be an array of operations');
  if (patch.length > jsonPatchOperationsMax) {
    throw new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: The allowed maximum operations in a JSON patch is ${jsonPatchOperationsMax}, got ${patch.length}`);
  }
  for (const [i, op] of patch.entries()) {
    if (!isOperation(op)) throw new StatusError(400, 'BadRequest', `invalid JSON patch operation at index ${i}: needs "op" (add, remove, replace, move, copy or test) and "path"`);
  }
  const doc = structuredClone(target);
  let copiedBytes = 0;
  // rfc6902 keeps going after a failure; apply one operation at a time so the first failure stops it.
  for (const [i, op] of (patch as Operation[]).entries()) {
    const fail = (what: string): StatusError =>
      new StatusError(422, 'Invalid', `the server rejected our request due to an error in our request: JSON patch operation ${i} (${op.op} ${op.path}): ${what}`);
    const missing = missingPointer(op);
    if (missing !== undefined) throw fail(missing);
    if (op.op === 'copy') {
      copiedBytes += copySize(doc, op.from);
      if (copiedBytes > jsonPatchCopyBytesMax) throw fail(`Unable to complete the copy, the accumulated size increase of copy is ${copiedBytes}, exceeding the limit ${jsonPatchCopyBytesMax}`);
    }
    const [result] = applyPatchOp(doc, op);
    if (result) throw fail(result.name === 'TestError' ? 'test operation failed' : result.message);
  }
  return doc;
}

/**
 * Why an operation's `path` (or `from`) names nothing, when it is not a JSON pointer (neither empty
 * nor starting with "/"): kube-apiserver's JSON patch finds no such path and fails the operation,
 * a 422; rfc6902 would throw.
 */
function missingPointer(op: Operation): string | undefined {
  const from = (op as { from?: unknown }).from;
  if (op.path !== '' && !op.path.startsWith('/')) return `${op.op} operation does not apply: doc is missing path: ${JSON.stringify(op.path)}`;
  if (op.op !== 'move' && op.op !== 'copy') return undefined;
  if (typeof from !== 'string') return `${op.op} operation failed to decode from`;
  if (from !== '' && !from.startsWith('/')) return `${op.op} operation does not apply: doc is missing from path: ${JSON.stringify(from)}`;
  return undefined;
}

/** The JSON size of what a copy from `from` adds (evanphx/json-patch counts it so); 0 when nothing is there. */
function copySize(doc: unknown, from: string): number {
  const value: unknown = Pointer.fromJSON(from).evaluate(doc).value;
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
}

/** One operation by rfc6902, which reports most failures but throws on some malformed input: that is the patch's fault too. */
function applyPatchOp(doc: unknown, op: Operation): readonly (Error | null)[] {
  try {
    return applyPatch(doc, [op]);
  } catch (err) {
    return [err instanceof Error ? err : new Error(String(err))];
  }
}
