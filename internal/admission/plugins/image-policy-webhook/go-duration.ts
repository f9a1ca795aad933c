// Durations written as Go's time.Duration.String writes them (`500ms`, `30s`, `5m0s`, `1h0m0s`),
// for configuration errors worded as kube's.

const units: readonly [string, number][] = [
  ['ms', 1e6],
  ['µs', 1e3],
  ['ns', 1],
];

function trimFraction(value: number): string {
  // Go prints the shortest exact decimal; nine digits cover nanoseconds.
  return Number(value.toFixed(9)).toString();
}

/** `ns` nanoseconds as Go prints a Duration. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const abs = Math.abs(ns);
  if (abs < 1e9) {
    const [unit, size] = units.find(([, size]) => abs >= size) ?? ['ns', 1];
    return `${sign}${trimFraction(abs / size)}${unit}`;
  }
  const hours = Math.floor(abs / 3.6e12);
  const minutes = Math.floor((abs % 3.6e12) / 6e10);
  const seconds = trimFraction((abs % 6e10) / 1e9);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}
