// kube-apiserver's --tracing-config-file: a TracingConfiguration (apiserver.config.k8s.io
// v1alpha1, v1beta1 or v1) with `endpoint` and `samplingRatePerMillion`. kube exports over OTLP
// gRPC to `endpoint` (host:port, default localhost:4317); orch exports over OTLP HTTP (JSON), so
// `endpoint` is read as a URL or as host:port:
//   http(s)://host:port            -> that URL with the OTLP traces path, /v1/traces
//   http(s)://host:port/some/path  -> that URL as it is
//   host:port                      -> http://host:port/v1/traces (plain HTTP, as kube's insecure gRPC)
//   absent                         -> http://localhost:4318/v1/traces (OTLP HTTP's default port)
// Unknown fields are refused (a misspelt samplingRatePerMillion would silently trace nothing).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The tracing settings the file gives. */
export interface TracingSettings {
  /** Where spans are POSTed (OTLP HTTP, JSON). */
  readonly url: string;
  /** Root spans sampled per million (0..1000000); a sampled parent (the client's `traceparent`) is followed either way. */
  readonly samplingRatePerMillion: number;
}

/** A TracingConfiguration that cannot be used; the message says what is wrong. */
export class TracingConfigError extends Error {}

const apiVersions: ReadonlySet<string> = new Set(['apiserver.config.k8s.io/v1alpha1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1']);
const knownFields: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'endpoint', 'samplingRatePerMillion']);

/** OTLP HTTP's default endpoint for traces (the collector's default HTTP port). */
export const defaultTracesUrl = 'http://localhost:4318/v1/traces';

/** The URL spans go to, from TracingConfiguration's `endpoint` (see the header). Throws TracingConfigError. */
export function tracesUrlOf(endpoint: string): string {
  if (/^https?:\/\//i.test(endpoint)) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new TracingConfigError(`endpoint: "${endpoint}" is not a URL`);
    }
    if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1/traces';
    return url.toString();
  }
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(endpoint);
  if (match === null || Number(match[2]) > 65535) throw new TracingConfigError(`endpoint: "${endpoint}" is neither host:port nor an http(s) URL`);
  return `http://${match[1] ?? ''}:${match[2] ?? ''}/v1/traces`;
}

/** Validates a decoded TracingConfiguration. Throws TracingConfigError naming the field. */
export function tracingSettingsOf(document: unknown): TracingSettings {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new TracingConfigError('not a TracingConfiguration object');
  const doc = document as Record<string, unknown>;
  if (doc.kind !== 'TracingConfiguration') throw new TracingConfigError(`kind: "${String(doc.kind)}" is not TracingConfiguration`);
  if (typeof doc.apiVersion !== 'string' || !apiVersions.has(doc.apiVersion)) {
    throw new TracingConfigError(`apiVersion: "${String(doc.apiVersion)}" is not one of ${[...apiVersions].join(', ')}`);
  }
  const unknown = Object.keys(doc).filter((key) => !knownFields.has(key));
  if (unknown.length > 0) throw new TracingConfigError(`unknown field ${unknown.map((k) => `"${k}"`).join(', ')}`);
  const rate = doc.samplingRatePerMillion ?? 0;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 0 || rate > 1_000_000) {
    throw new TracingConfigError(`samplingRatePerMillion: ${JSON.stringify(rate)} must be an integer from 0 to 1000000`);
  }
  const endpoint = doc.endpoint;
  if (endpoint !== undefined && (typeof endpoint !== 'string' || endpoint === '')) throw new TracingConfigError('endpoint: must be a non-empty string');
  return { url: endpoint === undefined ? defaultTracesUrl : tracesUrlOf(endpoint), samplingRatePerMillion: rate };
}

/** Reads and validates the file --tracing-config-file names (YAML or JSON). Throws TracingConfigError. */
export function loadTracingConfig(path: string): TracingSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TracingConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let document: unknown;
  try {
    document = parse(text);
  } catch (err) {
    throw new TracingConfigError(`${path} is not YAML or JSON: ${(err as Error).message}`);
  }
  try {
    return tracingSettingsOf(document);
  } catch (err) {
    if (err instanceof TracingConfigError) throw new TracingConfigError(`${path}: ${err.message}`);
    throw err;
  }
}
