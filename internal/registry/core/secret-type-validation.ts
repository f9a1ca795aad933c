// The keys each built-in Secret type needs, as kube-apiserver 1.28's ValidateSecret checks them.
// Types it does not know (Opaque, bootstrap tokens, users' own) need nothing.
import type { KObject } from '../schema/declaration.ts';
import { invalidValue, required, type FieldError } from '../schema/field-errors.ts';

type Data = Record<string, unknown>;

/** The annotation a service-account-token Secret names its ServiceAccount by. */
const serviceAccountNameKey = 'kubernetes.io/service-account.name';

/**
 * What Go's json.Unmarshal into a map answers for `text`, or undefined when it decodes. Only the
 * common cases are worded as Go words them: an empty or cut-off document, a bad first character,
 * a value that is not an object.
 */
function goJsonObjectError(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const first = text.trimStart()[0];
    if (first !== undefined && !/[[{"\-0-9tfn]/.test(first)) return `invalid character '${first}' looking for beginning of value`;
    // V8 names the character it stopped at; Go's wording then depends on where it stood, which
    // the common case (a missing value) words like this.
    const token = /Unexpected token '?(.)/.exec((e as Error).message)?.[1];
    return token === undefined ? 'unexpected end of JSON input' : `invalid character '${token}' looking for beginning of value`;
  }
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return undefined;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

function decoded(data: Data, key: string): string {
  return Buffer.from(String(data[key] ?? ''), 'base64').toString('utf8');
}

/** A docker config key (`.dockercfg`, `.dockerconfigjson`): required, and a JSON object. */
function dockerConfig(data: Data, key: string): FieldError[] {
  if (!(key in data)) return [required(`data[${key}]`)];
  const problem = goJsonObjectError(decoded(data, key));
  return problem === undefined ? [] : [invalidValue(`data[${key}]`, '<secret contents redacted>', problem)];
}

/** The type-specific rules of ValidateSecret: the keys (or annotation) a Secret of `type` must have. */
export function validateSecretType(o: KObject): FieldError[] {
  const data = (typeof o.data === 'object' && o.data !== null ? o.data : {}) as Data;
  switch (o.type) {
    case 'kubernetes.io/service-account-token':
      return o.metadata.annotations?.[serviceAccountNameKey] ? [] : [required(`metadata.annotations[${serviceAccountNameKey}]`)];
    case 'kubernetes.io/dockercfg':
      return dockerConfig(data, '.dockercfg');
    case 'kubernetes.io/dockerconfigjson':
      return dockerConfig(data, '.dockerconfigjson');
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one of the two must be present.
      return 'username' in data || 'password' in data ? [] : [required('data[username]'), required('data[password]')];
    case 'kubernetes.io/ssh-auth':
      return decoded(data, 'ssh-privatekey') === '' ? [required('data[ssh-privatekey]')] : [];
    case 'kubernetes.io/tls':
      return ['tls.crt', 'tls.key'].filter((k) => !(k in data)).map((k) => required(`data[${k}]`));
    default:
      return [];
  }
}
