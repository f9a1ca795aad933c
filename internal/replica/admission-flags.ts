// The replica's admission flags, as kube-apiserver 1.28 names them
// (pkg/kubeapiserver/options/admission.go): which plugins run, the configuration file, and the
// DefaultTolerationSeconds plugin's two flags. A bad list or file stops the replica at start.
import { AdmissionConfigurationError, loadAdmissionConfiguration } from '../admission/admission-configuration.ts';
import { pluginList, PluginSelectionError, selectPlugins } from '../admission/plugin-selection.ts';

/** The admission flags after validation. */
export interface AdmissionFlags {
  /** The enabled plugins, in the order they run. */
  readonly plugins: readonly string[];
  /** Each plugin's configuration (from the file, with the toleration flags for DefaultTolerationSeconds). */
  readonly configurations: ReadonlyMap<string, unknown>;
}

/** The parseArgs options of the admission flags. */
export const admissionFlagOptions = {
  'enable-admission-plugins': { type: 'string' },
  'disable-admission-plugins': { type: 'string' },
  'admission-control': { type: 'string' },
  'admission-control-config-file': { type: 'string' },
  'default-not-ready-toleration-seconds': { type: 'string', default: '300' },
  'default-unreachable-toleration-seconds': { type: 'string', default: '300' },
} as const;

/** The values parseArgs gives for them. */
export interface AdmissionFlagValues {
  readonly 'enable-admission-plugins'?: string | undefined;
  readonly 'disable-admission-plugins'?: string | undefined;
  readonly 'admission-control'?: string | undefined;
  readonly 'admission-control-config-file'?: string | undefined;
  readonly 'default-not-ready-toleration-seconds': string;
  readonly 'default-unreachable-toleration-seconds': string;
}

function seconds(text: string, flag: string, makeError: (message: string) => Error): number {
  if (!/^-?[0-9]+$/.test(text.trim())) throw makeError(`--${flag}: "${text}" is not an integer`);
  return Number(text.trim());
}

/** Validates the flags and reads the configuration file; throws `makeError(message)` naming what is wrong. */
export function parseAdmissionFlags(values: AdmissionFlagValues, makeError: (message: string) => Error): AdmissionFlags {
  let plugins: string[];
  try {
    const exact = pluginList(values['admission-control']);
    const enable = pluginList(values['enable-admission-plugins']);
    const disable = pluginList(values['disable-admission-plugins']);
    plugins = selectPlugins({ ...(exact ? { exact } : {}), ...(enable ? { enable } : {}), ...(disable ? { disable } : {}) });
  } catch (err) {
    if (err instanceof PluginSelectionError) throw makeError(`--${err.message}`);
    throw err;
  }
  const file = values['admission-control-config-file'];
  let configurations = new Map<string, unknown>();
  try {
    if (file !== undefined && file !== '') configurations = loadAdmissionConfiguration(file);
  } catch (err) {
    if (err instanceof AdmissionConfigurationError) throw makeError(`--admission-control-config-file: ${err.message}`);
    throw err;
  }
  configurations.set('DefaultTolerationSeconds', {
    notReadySeconds: seconds(values['default-not-ready-toleration-seconds'], 'default-not-ready-toleration-seconds', makeError),
    unreachableSeconds: seconds(values['default-unreachable-toleration-seconds'], 'default-unreachable-toleration-seconds', makeError),
  });
  return { plugins, configurations };
}
