// The CronTab CustomResourceDefinition of kube's "Extend the Kubernetes API with
// CustomResourceDefinitions" task, as JSON, and small helpers the apiextensions tests share.
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import type { FieldError } from '../../../../internal/registry/schema/field-errors.ts';

/** The CronTab schema of kube's docs, with a few more fields the tests exercise. */
export function crontabSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
          image: { type: 'string' },
          replicas: { type: 'integer', minimum: 1, maximum: 10 },
        },
      },
      status: { type: 'object', properties: { replicas: { type: 'integer' } } },
    },
  };
}

/** The CronTab CRD (stable.example.com/v1, namespaced), defaulted and with the status the server sets. */
export function crontab(): KObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: crontabSchema() } }],
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] },
      conversion: { strategy: 'None' },
    },
    status: { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
  };
}

/** The `field: message` lines of field errors, as kube prints them. */
export function lines(errors: readonly FieldError[]): string[] {
  return errors.map((e) => `${e.field}: ${e.message}`);
}
