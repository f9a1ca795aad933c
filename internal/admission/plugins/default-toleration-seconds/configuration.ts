// The DefaultTolerationSeconds plugin's settings: kube-apiserver's flags
// --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (300 each),
// which the replica passes as the configuration `{ notReadySeconds, unreachableSeconds }`. The
// longer spellings `defaultNotReadyTolerationSeconds`/`defaultUnreachableTolerationSeconds` (an
// AdmissionConfiguration file's) are taken too.

/** The tolerationSeconds of the two added tolerations. */
export interface DefaultTolerationSecondsConfiguration {
  readonly notReadySeconds: number;
  readonly unreachableSeconds: number;
}

/** kube's default for both flags (five minutes). */
export const defaultTolerationSeconds = 300;

const aliases: Readonly<Record<string, keyof DefaultTolerationSecondsConfiguration>> = {
  notReadySeconds: 'notReadySeconds',
  defaultNotReadyTolerationSeconds: 'notReadySeconds',
  unreachableSeconds: 'unreachableSeconds',
  defaultUnreachableTolerationSeconds: 'unreachableSeconds',
};

/** The settings from `configuration` (undefined: the defaults); throws an Error naming a bad field. */
export function parseDefaultTolerationSecondsConfiguration(configuration: unknown): DefaultTolerationSecondsConfiguration {
  const settings = { notReadySeconds: defaultTolerationSeconds, unreachableSeconds: defaultTolerationSeconds };
  if (configuration === undefined || configuration === null) return settings;
  if (typeof configuration !== 'object' || Array.isArray(configuration)) throw new Error('DefaultTolerationSeconds: configuration must be an object');
  for (const [key, value] of Object.entries(configuration)) {
    const field = aliases[key];
    if (field === undefined) throw new Error(`DefaultTolerationSeconds: unknown configuration field ${JSON.stringify(key)}`);
    // The flags are int64 seconds; a negative value is accepted as kube accepts it (evict at once).
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Error(`DefaultTolerationSeconds: ${key} must be an integer number of seconds`);
    settings[field] = value;
  }
  return settings;
}
