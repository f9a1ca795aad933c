// The replica's log and trace flags, as kube-apiserver names them: klog's `--v` (`-v`) verbosity
// (internal/logging/logger.ts says what each level writes) and `--tracing-config-file`, a
// TracingConfiguration (internal/tracing/tracing-config.ts; orch exports over OTLP HTTP).
import { parseVerbosity } from '../logging/logger.ts';
import { loadTracingConfig, TracingConfigError, type TracingSettings } from '../tracing/tracing-config.ts';

/** The log and trace flags after validation. */
export interface ObservabilityFlags {
  /** --v: 0 (default) and up. */
  readonly verbosity: number;
  /** --tracing-config-file's settings; null: no tracer provider (the API's no-op, no cost). */
  readonly tracing: TracingSettings | null;
}

/** The parseArgs options of the flags. */
export const observabilityFlagOptions = {
  v: { type: 'string', short: 'v', default: '0' },
  'tracing-config-file': { type: 'string' },
} as const;

/** The values parseArgs gives for them. */
export interface ObservabilityFlagValues {
  readonly v: string;
  readonly 'tracing-config-file'?: string | undefined;
}

/** Validates `--v` and reads the tracing configuration file; throws `makeError(message)` naming the flag. */
export function parseObservabilityFlags(values: ObservabilityFlagValues, makeError: (message: string) => Error): ObservabilityFlags {
  let verbosity: number;
  try {
    verbosity = parseVerbosity(values.v);
  } catch (err) {
    throw makeError((err as Error).message);
  }
  const file = values['tracing-config-file'];
  if (file === undefined || file === '') return { verbosity, tracing: null };
  try {
    return { verbosity, tracing: loadTracingConfig(file) };
  } catch (err) {
    if (err instanceof TracingConfigError) throw makeError(`--tracing-config-file: ${err.message}`);
    throw err;
  }
}
