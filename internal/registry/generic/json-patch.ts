import { applyPatch, type Operation } from 'rfc6902';
import { StatusError } from '../errors/status-error.ts';

const ops = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

function isOperation(v: unknown): v is Operation {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.op === 'string' && ops.has(o.op) && typeof o.path === 'string';
}

/**
 * Applies an RFC 6902 JSON Patch to a copy of `target`. Fails on the first failed operation
 * (including `test`), with 422 as Kubernetes does; a malformed document is a 400.
 */
export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new StatusError(400, 'BadRequest', 'the JSON patch must be an array of operations');
  for (const [i, op] of patch.entries()) {
    if (!isOperation(op)) throw new StatusError(400, 'BadRequest', `invalid JSON patch operation at index ${i}: needs "op" (add, remove, replace, move, copy or test) and "path"`);
  }
  const doc = structuredClone(target);
  // rfc6902 keeps going after a failure; apply one operation at a time so the first failure stops it.
  for (const [i, op] of (patch as Operation[]).entries()) {
    const [result] = applyPatch(doc, [op]);
    if (result) {
      const what = result.name === 'TestError' ? 'test operation failed' : result.message;
      throw new StatusError(422, 'Invalid', `the server rejected our request due to an error in our request: JSON patch operation ${i} (${op.op} ${op.path}): ${what}`);
    }
  }
  return doc;
}
