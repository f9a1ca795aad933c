// The schedule syntax of a CronJob, as kube-apiserver 1.28 checks it with robfig/cron v3's
// ParseStandard: five fields (minute, hour, day of month, month, day of week), or a descriptor
// (@hourly, @every 1h30m...), optionally after TZ=<zone> or CRON_TZ=<zone>. parseSchedule answers
// the parser's own error text, which the API puts in the field error.

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The five fields in order, with their ranges and names. */
const fieldBounds: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(months.map((m, i) => [m, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(days.map((d, i) => [d, i])) },
];

const descriptors = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
// A number is `\d+(\.\d*)?` rather than `\d+\.?\d*`, whose two digit runs made a long number that
// fails take time quadratic in its length (16,000 digits: 1.3 s).
const goDuration = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;

/** Go's %q of a string (close enough for the ASCII a schedule holds). */
function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** strconv.Atoi, with its error text. */
function atoi(expr: string): number | string {
  if (!/^[-+]?\d+$/.test(expr)) return `strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`;
  const n = Number(expr);
  if (!Number.isSafeInteger(n)) return `strconv.Atoi: parsing ${goQuote(expr)}: value out of range`;
  return n;
}

/** A non-negative integer, or the parser's error. */
function parseUint(expr: string): number | string {
  const n = atoi(expr);
  if (typeof n === 'string') return `failed to parse int from ${expr}: ${n}`;
  if (n < 0) return `negative number (${n}) not allowed: ${expr}`;
  return n;
}

function parseIntOrName(expr: string, bounds: Bounds): number | string {
  const named = bounds.names?.[expr.toLowerCase()];
  return named ?? parseUint(expr);
}

/** One range (`*`, `n`, `a-b`, each with an optional `/step`); the error text, or undefined. */
function checkRange(expr: string, bounds: Bounds): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    const low = parseIntOrName(lowAndHigh[0] ?? '', bounds);
    if (typeof low === 'string') return low;
    start = low;
    end = low;
    if (lowAndHigh.length === 2) {
      const high = parseIntOrName(lowAndHigh[1] ?? '', bounds);
      if (typeof high === 'string') return high;
      end = high;
    } else if (lowAndHigh.length > 2) return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const parsed = parseUint(rangeAndStep[1] ?? '');
    if (typeof parsed === 'string') return parsed;
    step = parsed;
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < bounds.min) return `beginning of range (${start}) below minimum (${bounds.min}): ${expr}`;
  if (end > bounds.max) return `end of range (${end}) above maximum (${bounds.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return undefined;
}

function checkDescriptor(spec: string): string | undefined {
  if (descriptors.has(spec)) return undefined;
  const every = '@every ';
  if (spec.startsWith(every)) {
    const duration = spec.slice(every.length);
    if (duration === '0' || goDuration.test(duration)) return undefined;
    const reason = /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(duration) ? `time: missing unit in duration ${goQuote(duration)}` : `time: invalid duration ${goQuote(duration)}`;
    return `failed to parse duration ${spec}: ${reason}`;
  }
  return `unrecognized descriptor: ${spec}`;
}

/** Whether `zone` names a time zone of the IANA database (Go's time.LoadLocation). */
export function isKnownTimeZone(zone: string): boolean {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The error ParseStandard gives for `schedule`, or undefined when it parses. */
export function parseSchedule(schedule: string): string | undefined {
  if (schedule.length === 0) return 'empty spec string';
  let spec = schedule;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    if (space === -1) return `invalid location descriptior: ${spec}`;
    const zone = spec.slice(spec.indexOf('=') + 1, space);
    if (!isKnownTimeZone(zone)) return `provided bad location ${zone}: unknown time zone ${zone}`;
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) return checkDescriptor(spec);
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== fieldBounds.length) return `expected exactly ${fieldBounds.length} fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (const [i, text] of fields.entries()) {
    const bounds = fieldBounds[i] as Bounds;
    for (const expr of text.split(',').filter((e) => e !== '')) {
      const problem = checkRange(expr, bounds);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
