// Reads of the state machine: latest and MVCC (at a revision) gets and prefix lists, and history
// pages for watch replay. Each function runs synchronously on one connection, so what it reads is
// one consistent state; lists also run inside one read transaction.
import type { Db, HistoryRow, KvRow, Statements } from './state-schema.ts';
import { scanRange } from './key-range.ts';
import { revision, type KeyValue } from './storage.ts';
import type { ChangeEvent } from './change-event.ts';

/** The KeyValue of a live row. */
export function rowToKeyValue(row: KvRow): KeyValue {
  return { key: row.key, value: row.value, createRevision: revision(row.create_rev), modRevision: revision(row.rev) };
}

/** Reads one key, latest (`at` null) or as of revision `at`; null when absent or deleted. */
export function readKey(st: Statements, key: string, at: number | null): KeyValue | null {
  const row = at === null ? st.latestRow.get(key) : st.rowAt.get(key, at);
  if (row === undefined || row.deleted !== 0) return null;
  return rowToKeyValue(row);
}

/** A page of a prefix scan: live rows in key order and how many live keys follow the page (undefined: not counted). */
export interface ScanPage {
  readonly rows: KvRow[];
  readonly nextKey: string | null;
  readonly remainingCount: number | undefined;
}

/** Builds the statements of one list shape (latest or at a revision; bounded above or not). */
function listSql(at: boolean, bounded: boolean): { page: string; count: string } {
  const hiClause = bounded ? 'AND key < :hi' : '';
  if (!at) {
    return {
      page: `SELECT kv.* FROM latest JOIN kv ON kv.rev = latest.rev
             WHERE latest.key >= :lo ${bounded ? 'AND latest.key < :hi' : ''} ORDER BY latest.key LIMIT :limit`,
      count: `SELECT COUNT(*) AS n FROM latest WHERE key >= :lo ${hiClause}`,
    };
  }
  // Grouping over the (key, rev) index yields keys in order, so the page streams without a sort.
  const live = `SELECT kv.* FROM (SELECT key, MAX(rev) AS rev FROM kv WHERE key >= :lo ${hiClause} AND rev <= :at
                GROUP BY key ORDER BY key) AS m JOIN kv ON kv.rev = m.rev WHERE kv.deleted = 0`;
  return { page: `${live} ORDER BY m.key LIMIT :limit`, count: `SELECT COUNT(*) AS n FROM (${live})` };
}

/** Prepared list statements of one connection, by shape. */
export class ListStatements {
  private readonly cache = new Map<string, { page: ReturnType<Db['prepare']>; count: ReturnType<Db['prepare']> }>();
  constructor(private readonly db: Db) {}

  /** The statements of one shape, prepared on first use. */
  get(at: boolean, bounded: boolean) {
    const name = `${at}-${bounded}`;
    let s = this.cache.get(name);
    if (s === undefined) {
      const sql = listSql(at, bounded);
      s = { page: this.db.prepare(sql.page), count: this.db.prepare(sql.count) };
      this.cache.set(name, s);
    }
    return s;
  }
}

/** Lists live keys with `prefix` from `startKey`, latest (`at` null) or as of revision `at`, up to `limit` (0: all). */
export function scanPrefix(
  db: Db,
  statements: ListStatements,
  opts: { prefix: string; startKey?: string; limit: number; countRemaining: boolean; at: number | null },
): ScanPage {
  const { lo, hi } = scanRange(opts.prefix, opts.startKey);
  const s = statements.get(opts.at !== null, hi !== null);
  const params: Record<string, unknown> = { lo };
  if (hi !== null) params['hi'] = hi;
  if (opts.at !== null) params['at'] = opts.at;
  return db.transaction((): ScanPage => {
    const rows = s.page.all({ ...params, limit: opts.limit > 0 ? opts.limit + 1 : -1 }) as KvRow[];
    if (opts.limit <= 0 || rows.length <= opts.limit) return { rows, nextKey: null, remainingCount: 0 };
    const next = rows[opts.limit] as KvRow;
    rows.length = opts.limit;
    if (!opts.countRemaining) return { rows, nextKey: next.key, remainingCount: undefined };
    const { n } = s.count.get({ ...params, lo: next.key }) as { n: number };
    return { rows, nextKey: next.key, remainingCount: n };
  })();
}

/** History after revision `after` for keys with `prefix`, oldest first, at most `limit` events. */
export function readHistory(st: Statements, opts: { after: number; prefix: string; limit: number }): ChangeEvent[] {
  const { lo, hi } = scanRange(opts.prefix);
  const rows = st.history.all({ after: opts.after, lo, hi, limit: opts.limit });
  return rows.map(historyRowToEvent);
}

function historyRowToEvent(row: HistoryRow): ChangeEvent {
  if (row.create_rev === row.rev && row.deleted === 0) return { type: 'create', kv: rowToKeyValue(row) };
  if (row.p_rev === null || row.p_create_rev === null || row.p_value === null) {
    throw new Error(`assert: history row ${row.rev} lost its previous row ${row.prev_rev}`);
  }
  const prevKv: KeyValue = { key: row.key, value: row.p_value, createRevision: revision(row.p_create_rev), modRevision: revision(row.p_rev) };
  if (row.deleted !== 0) {
    return { type: 'delete', kv: { ...prevKv, modRevision: revision(row.rev) }, prevKv };
  }
  return { type: 'update', kv: rowToKeyValue(row), prevKv };
}
