import type { KObject, ResourceDeclaration } from '../registry/schema/declaration.ts';
import { defaultColumns } from '../registry/schema/printers.ts';

/** The `includeObject` choices of a Table request. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The metadata-only view of an object (`PartialObjectMetadata`). */
export function partialMetadata(obj: KObject, apiDomain: string): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.${apiDomain}/v1`, metadata: obj.metadata };
}

/** Builds a `Table` (meta/v1) of objects from the declaration's printer columns. */
export function toTable(
  decl: ResourceDeclaration,
  objects: readonly KObject[],
  listMeta: Record<string, unknown>,
  opts: { apiDomain: string; includeObject: IncludeObject; now?: Date },
): Record<string, unknown> {
  const columns = decl.printerColumns ?? defaultColumns;
  const now = opts.now ?? new Date();
  const rows = objects.map((o) => {
    const row: Record<string, unknown> = { cells: columns.map((c) => c.cell(o, now)) };
    if (opts.includeObject === 'Object') row.object = o;
    else if (opts.includeObject === 'Metadata') row.object = partialMetadata(o, opts.apiDomain);
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `meta.${opts.apiDomain}/v1`,
    metadata: listMeta,
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
    rows,
  };
}

/** Parses `includeObject` (default Metadata). */
export function parseIncludeObject(value: string | null): IncludeObject {
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}
