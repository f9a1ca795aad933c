// The server's Table (meta.k8s.io/v1), as `orchctl get` asks for it and prints it: the columns
// of priority 0 (what kubectl shows without -o wide), a NAMESPACE column first across namespaces.
import { cellText, formatTable } from './output.ts';

/** The Accept header that asks for a Table, falling back to JSON. */
export const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** A Table answer (the fields orchctl uses). */
export interface ServerTable {
  readonly kind?: string;
  readonly columnDefinitions?: readonly { readonly name: string; readonly priority?: number }[];
  readonly rows?: readonly { readonly cells: readonly unknown[]; readonly object?: { metadata?: { namespace?: string } } }[];
}

/** Whether an answer is a Table. */
export function isServerTable(value: unknown): value is ServerTable {
  return value !== null && typeof value === 'object' && (value as ServerTable).kind === 'Table';
}

/** The table as text; `withNamespace` adds the NAMESPACE column (from each row's object). */
export function formatServerTable(table: ServerTable, withNamespace: boolean): string {
  const columns = (table.columnDefinitions ?? []).map((c, index) => ({ name: c.name, index, priority: c.priority ?? 0 })).filter((c) => c.priority === 0);
  const rows = (table.rows ?? []).map((row) => {
    const cells = columns.map((c) => cellText(row.cells[c.index]));
    return withNamespace ? [row.object?.metadata?.namespace ?? '', ...cells] : cells;
  });
  const headers = columns.map((c) => c.name);
  return formatTable(withNamespace ? ['namespace', ...headers] : headers, rows);
}
