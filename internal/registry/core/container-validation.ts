// Validation of one container as kube-apiserver's ValidatePodSpec does it for what users write
// most (pkg/apis/core/validation/validation.go): ports, environment variable names, pull and
// termination-message policies, resource requests against limits, and volume mounts naming a
// volume of the pod. Field paths and messages are kube-apiserver's.
import { duplicate, invalidValue, notFoundValue, notSupported, required, type FieldError } from '../schema/field-errors.ts';
import { portName, qualifiedName } from '../schema/name-validation.ts';
import { quantityValue } from '../schema/wire-formats.ts';

const portProtocols = ['SCTP', 'TCP', 'UDP'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
const portRangeMessage = 'must be between 1 and 65535, inclusive';
const envVarName = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const envVarNameMessage = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

type Json = Record<string, unknown>;

const asList = (value: unknown): Json[] => (Array.isArray(value) ? (value.filter((v) => typeof v === 'object' && v !== null) as Json[]) : []);

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

function validatePorts(ports: Json[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = `${path}[${i}]`;
    const name = port.name;
    if (typeof name === 'string' && name !== '') {
      for (const p of portName(name)) errors.push(invalidValue(`${at}.name`, name, p));
      if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
      names.add(name);
    }
    if (port.containerPort === undefined || port.containerPort === 0) errors.push(required(`${at}.containerPort`));
    else if (!isPort(port.containerPort)) errors.push(invalidValue(`${at}.containerPort`, port.containerPort, portRangeMessage));
    if (port.hostPort !== undefined && port.hostPort !== 0 && !isPort(port.hostPort)) errors.push(invalidValue(`${at}.hostPort`, port.hostPort, portRangeMessage));
    if (port.protocol === undefined || port.protocol === '') errors.push(required(`${at}.protocol`));
    else if (!portProtocols.includes(String(port.protocol))) errors.push(notSupported(`${at}.protocol`, port.protocol, portProtocols));
  });
  return errors;
}

function validateEnv(env: Json[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  env.forEach((variable, i) => {
    const name = variable.name;
    if (typeof name !== 'string' || name === '') errors.push(required(`${path}[${i}].name`));
    else if (!envVarName.test(name)) errors.push(invalidValue(`${path}[${i}].name`, name, envVarNameMessage));
  });
  return errors;
}

/** Resource names and quantities, and each request at most its limit (ValidateResourceRequirements). */
function validateResources(resources: unknown, path: string): FieldError[] {
  if (typeof resources !== 'object' || resources === null) return [];
  const { limits, requests } = resources as { limits?: Record<string, unknown>; requests?: Record<string, unknown> };
  const errors: FieldError[] = [];
  const check = (map: Record<string, unknown> | undefined, kind: 'limits' | 'requests'): void => {
    for (const [name, quantity] of Object.entries(map ?? {})) {
      const at = `${path}.${kind}[${name}]`;
      for (const p of qualifiedName(name)) errors.push(invalidValue(at, name, p));
      const value = typeof quantity === 'string' || typeof quantity === 'number' ? quantityValue(quantity) : undefined;
      if (value !== undefined && value < 0) errors.push(invalidValue(at, String(quantity), 'must be greater than or equal to 0'));
    }
  };
  check(limits, 'limits');
  check(requests, 'requests');
  for (const [name, request] of Object.entries(requests ?? {})) {
    const limit = limits?.[name];
    if (limit === undefined) continue;
    const requested = quantityValue(request as string);
    const allowed = quantityValue(limit as string);
    if (requested !== undefined && allowed !== undefined && requested > allowed) {
      errors.push(invalidValue(`${path}.requests[${name}]`, String(request), `must be less than or equal to ${name} limit of ${String(limit)}`));
    }
  }
  return errors;
}

function validateVolumeMounts(mounts: Json[], path: string, volumes: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  mounts.forEach((mount, i) => {
    const at = `${path}[${i}]`;
    if (typeof mount.name !== 'string' || mount.name === '') errors.push(required(`${at}.name`));
    else if (!volumes.has(mount.name)) errors.push(notFoundValue(`${at}.name`, mount.name));
    if (typeof mount.mountPath !== 'string' || mount.mountPath === '') errors.push(required(`${at}.mountPath`));
  });
  return errors;
}

/** The names of a pod spec's volumes, for the mounts to name. */
export function volumeNames(spec: unknown): Set<string> {
  const volumes = typeof spec === 'object' && spec !== null ? (spec as Json).volumes : undefined;
  return new Set(asList(volumes).map((v) => v.name).filter((n): n is string => typeof n === 'string'));
}

/** Validates one container at `path` (`spec.containers[0]`) of a pod spec with the given volumes. */
export function validateContainerDetails(container: Json, path: string, volumes: ReadonlySet<string>): FieldError[] {
  const errors = [...validatePorts(asList(container.ports), `${path}.ports`), ...validateEnv(asList(container.env), `${path}.env`), ...validateResources(container.resources, `${path}.resources`), ...validateVolumeMounts(asList(container.volumeMounts), `${path}.volumeMounts`, volumes)];
  const pull = container.imagePullPolicy;
  if (pull !== undefined && pull !== '' && !pullPolicies.includes(String(pull))) errors.push(notSupported(`${path}.imagePullPolicy`, pull, pullPolicies));
  const termination = container.terminationMessagePolicy;
  if (termination !== undefined && termination !== '' && !terminationMessagePolicies.includes(String(termination))) errors.push(notSupported(`${path}.terminationMessagePolicy`, termination, terminationMessagePolicies));
  return errors;
}
