import type { KObject, ResourceDeclaration } from '../registry/schema/declaration.ts';
import { defaultColumns } from '../registry/schema/printers.ts';

/** The `includeObject` choices of a Table request. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The metadata-only view of an object (`PartialObjectMetadata`). */
export function partialMetadata(obj: KObject, apiDomain: string): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.${apiDomain}/v1`, metadata: obj.metadata };
}

/** Options of a Table view. */
export interface TableOptions {
  readonly apiDomain: string;
  readonly includeObject: IncludeObject;
  readonly now?: Date;
}

/**
 * A `Table` (meta/v1) in two parts, for a body written row by row: every field but `rows`, in the
 * order toTable has them (rows last), and the row of one object (all rows share one `now`).
 */
export function tableParts(decl: ResourceDeclaration, listMeta: Record<string, unknown>, opts: TableOptions): { head: Record<string, unknown>; row: (o: KObject) => Record<string, unknown> } {
  const columns = decl.printerColumns ?? defaultColumns;
  const now = opts.now ?? new Date();
  const row = (o: KObject): Record<string, unknown> => {
    const r: Record<string, unknown> = { cells: columns.map((c) => c.cell(o, now)) };
    if (opts.includeObject === 'Object') r.object = o;
    else if (opts.includeObject === 'Metadata') r.object = partialMetadata(o, opts.apiDomain);
    return r;
  };
  const head = {
    kind: 'Table',
    apiVersion: `meta.${opts.apiDomain}/v1`,
    metadata: listMeta,
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
  };
  return { head, row };
}

/** Builds a `Table` (meta/v1) of objects from the declaration's printer columns. */
export function toTable(decl: ResourceDeclaration, objects: readonly KObject[], listMeta: Record<string, unknown>, opts: TableOptions): Record<string, unknown> {
  const { head, row } = tableParts(decl, listMeta, opts);
  return { ...head, rows: objects.map(row) };
}

/** Parses `includeObject` (default Metadata). */
export function parseIncludeObject(value: string | null): IncludeObject {
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}
