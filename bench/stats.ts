// Statistics and the result table of the benchmark: pure functions, unit-tested.

/** Percentile by nearest rank (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new Error(`assert: percentile ${p} out of 0..100`);
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Latency of a set of operations, in milliseconds. */
export interface LatencySummary {
  readonly count: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** Summarizes latencies in milliseconds (NaN fields when there are none). */
export function summarize(latenciesMs: readonly number[]): LatencySummary {
  return {
    count: latenciesMs.length,
    p50Ms: percentile(latenciesMs, 50),
    p99Ms: percentile(latenciesMs, 99),
    maxMs: latenciesMs.length === 0 ? Number.NaN : latenciesMs.reduce((a, b) => Math.max(a, b)),
  };
}

/** a / b, or null when either is missing, not finite, or b is zero. */
export function ratio(a: number | null, b: number | null): number | null {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return a / b;
}

/** One row of the table: orch's value, the reference (etcd) and the machine's limit where there is one. */
export interface BenchRow {
  readonly section: string;
  readonly name: string;
  readonly unit: string;
  readonly orch: number | null;
  readonly etcd: number | null;
  readonly limit: number | null;
  /** orch / etcd, filled by `makeRow`. */
  readonly ratio: number | null;
}

/** Builds a row; the ratio is always orch / etcd. */
export function makeRow(fields: Omit<BenchRow, 'ratio' | 'etcd' | 'limit'> & { etcd?: number | null; limit?: number | null }): BenchRow {
  const etcd = fields.etcd ?? null;
  return { ...fields, etcd, limit: fields.limit ?? null, ratio: ratio(fields.orch, etcd) };
}

/** A number for the table: 3 significant digits, thousands without exponent; '-' when missing. */
export function formatNumber(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '-';
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toString();
  if (abs === 0) return '0';
  return Number(value.toPrecision(3)).toString();
}

const headers = ['section', 'row', 'unit', 'orch', 'etcd', 'orch/etcd', 'limit'] as const;

/** Renders rows as a fixed-width text table, in the given order (numbers right-aligned). */
export function renderTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [r.section, r.name, r.unit, formatNumber(r.orch), formatNumber(r.etcd), formatNumber(r.ratio), formatNumber(r.limit)]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: readonly string[]): string =>
    values.map((v, i) => (i >= 3 ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(headers), rule, ...cells.map(line)].join('\n');
}
