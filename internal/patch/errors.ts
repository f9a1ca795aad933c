// Coded operating errors of the patch layer. The API layer maps each to a Status response.

/** Stable codes of patch errors. */
export type PatchErrorCode =
  | 'InvalidPatch' // the patch is not a JSON object, or a value has the wrong shape
  | 'InvalidDirective' // a `$patch`, `$retainKeys`, `$setElementOrder/…` or `$deleteFromPrimitiveList/…` is malformed
  | 'MissingMergeKey' // a list item in a merge list lacks its merge key
  | 'InvalidObject' // an object or applied configuration cannot be walked by its schema (missing or duplicate list keys)
  | 'InvalidManagedFields' // a managedFields entry or FieldsV1 tree is malformed
  | 'ManagedFieldsInApply' // SSA rule 1: the applied configuration carries metadata.managedFields
  | 'TooDeep'; // nesting exceeds limits.nestingDepthMax

const statusOfCode: Record<PatchErrorCode, 400 | 422> = {
  InvalidPatch: 400,
  InvalidDirective: 422,
  MissingMergeKey: 422,
  InvalidObject: 422,
  InvalidManagedFields: 400,
  ManagedFieldsInApply: 400,
  TooDeep: 422,
};

/** Bad input to a patch or apply: a stable code plus a message a person can act on; never a partial result. */
export class PatchError extends Error {
  /** HTTP status the API should answer with: 400 (malformed) or 422 (well-formed but not applicable). */
  readonly status: 400 | 422;

  constructor(
    readonly code: PatchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PatchError';
    this.status = statusOfCode[code];
  }
}

/** One field whose value an apply would change although another manager owns it. */
export interface ApplyConflict {
  /** The other manager's name. */
  manager: string;
  /** `Apply` or `Update`: the operation of the other manager's entry. */
  operation: 'Apply' | 'Update';
  /** API version of the other manager's entry. */
  apiVersion: string;
  /** Sub-resource of the other manager's entry, when it has one. */
  subresource?: string;
  /** The field in Kubernetes path syntax, e.g. `.spec.replicas` or `.spec.containers[name="nginx"].image`. */
  field: string;
}

/** How Kubernetes names a manager in conflict messages: `"mgr"`, `"mgr" using apps/v1` for Update entries. */
export function describeManager(c: Omit<ApplyConflict, 'field'>): string {
  let text = JSON.stringify(c.manager);
  if (c.subresource) text += ` with subresource ${JSON.stringify(c.subresource)}`;
  if (c.operation === 'Update') text += ` using ${c.apiVersion}`;
  return text;
}

function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  if (conflicts.length === 1) {
    const only = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${describeManager(only)}: ${only.field}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const name = describeManager(c);
    byManager.set(name, [...(byManager.get(name) ?? []), c.field]);
  }
  const lines: string[] = [];
  for (const name of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${name}:`);
    for (const field of byManager.get(name)!) lines.push(`- ${field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** A Status cause as Kubernetes reports apply conflicts (`type: FieldManagerConflict`). */
export interface ConflictCause {
  type: 'FieldManagerConflict';
  message: string;
  field: string;
}

/**
 * SSA rule 2: an apply without `force` would change fields other managers own. Answered with 409;
 * `conflicts` lists every such field, sorted by manager then field.
 */
export class ApplyConflictError extends Error {
  readonly status = 409;
  readonly code = 'Conflict';

  constructor(readonly conflicts: readonly ApplyConflict[]) {
    super(conflictMessage(conflicts));
    this.name = 'ApplyConflictError';
  }

  /** The `details.causes` of the Status, one per conflicting field. */
  causes(): ConflictCause[] {
    return this.conflicts.map((c) => ({ type: 'FieldManagerConflict', message: `conflict with ${describeManager(c)}`, field: c.field }));
  }
}
