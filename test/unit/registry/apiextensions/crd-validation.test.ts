// ValidateCustomResourceDefinition(Update) of apiextensions-apiserver 1.28 on v1 CRDs: the CronTab
// CRD of kube's docs is valid; each invalid variant gets kube's field path and message. A schema
// shared by all versions is reported at spec.validation, as kube does after converting to its
// internal form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCrd, validateCrdUpdate } from '../../../../internal/registry/apiextensions/crd-validation.ts';
import type { KObject } from '../../../../internal/registry/schema/declaration.ts';
import type { FieldError } from '../../../../internal/registry/schema/field-errors.ts';
import { crontab, crontabSchema, lines } from './crontab-fixture.ts';

type Entry = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function variant(change: (crd: Entry) => void): KObject {
  const crd = crontab();
  change(crd);
  return crd;
}

const errorsOf = (crd: KObject): string[] => lines(validateCrd(crd));
const schemaOf = (crd: Entry, i = 0): Entry => crd.spec.versions[i].schema.openAPIV3Schema;
const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

test('the CronTab CRD of kube\'s docs is valid', () => {
  assert.deepEqual(errorsOf(crontab()), []);
});

test('metadata.name is <plural>.<group>', () => {
  assert.deepEqual(errorsOf(variant((c) => (c.metadata.name = 'crontab.stable.example.com'))), ['metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group']);
});

test('group: required, a DNS subdomain with at least one dot', () => {
  assert.deepEqual(errorsOf(variant((c) => { c.spec.group = 'example'; c.metadata.name = 'crontabs.example'; })), ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
  assert.ok(errorsOf(variant((c) => (c.spec.group = ''))).includes('spec.group: Required value'));
  const upper = errorsOf(variant((c) => { c.spec.group = 'Example.com'; c.metadata.name = 'crontabs.Example.com'; }));
  assert.ok(upper[0]?.startsWith('spec.group: Invalid value: "Example.com": a lowercase RFC 1123 subdomain'), upper[0]);
});

test('scope: required, Cluster or Namespaced', () => {
  assert.deepEqual(errorsOf(variant((c) => (c.spec.scope = 'Global'))), ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
  assert.deepEqual(errorsOf(variant((c) => delete c.spec.scope)), ['spec.scope: Required value']);
});

test('names: required, DNS-1035 labels (kinds in any case), kind differs from listKind', () => {
  assert.deepEqual(errorsOf(variant((c) => { delete c.spec.names.singular; delete c.spec.names.listKind; })), ['spec.names.singular: Required value', 'spec.names.listKind: Required value']);
  assert.deepEqual(errorsOf(variant((c) => (c.spec.names.shortNames = ['ct', 'Bad_']))), [`spec.names.shortNames[1]: Invalid value: "Bad_": ${dns1035}`]);
  assert.deepEqual(errorsOf(variant((c) => (c.spec.names.kind = 'Cron_Tab'))), [`spec.names.kind: Invalid value: "Cron_Tab": may have mixed case, but should otherwise match: ${dns1035}`]);
  assert.deepEqual(errorsOf(variant((c) => (c.spec.names.listKind = 'CronTab'))), ['spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same']);
  assert.deepEqual(errorsOf(variant((c) => (c.spec.names.categories = ['all', '1x']))), [`spec.names.categories[1]: Invalid value: "1x": ${dns1035}`]);
});

test('versions: DNS-1035 names, unique, exactly one storage version', () => {
  const twoStorage = errorsOf(variant((c) => { c.spec.versions.push({ ...c.spec.versions[0], name: 'v2' }); c.status.storedVersions = ['v1', 'v2']; }));
  assert.equal(twoStorage.length, 1);
  assert.match(twoStorage[0] ?? '', /^spec\.versions: Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version$/);
  assert.deepEqual(errorsOf(variant((c) => (c.spec.versions[0].storage = false))), [
    'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}}: must have exactly one version marked as storage version',
  ]);
  const duplicate = errorsOf(variant((c) => c.spec.versions.push({ ...c.spec.versions[0], storage: false })));
  assert.match(duplicate[0] ?? '', /: must contain unique version names$/);
  assert.deepEqual(errorsOf(variant((c) => { c.spec.versions[0].name = 'V1'; c.status.storedVersions = ['V1']; })), [
    `spec.versions[0].name: Invalid value: "V1": ${dns1035}`,
    `spec.version: Invalid value: "V1": ${dns1035}`,
  ]);
});

test('every version has a schema', () => {
  assert.deepEqual(errorsOf(variant((c) => delete c.spec.versions[0].schema)), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
});

test('a schema all versions share is reported at spec.validation; differing ones per version', () => {
  const shared = variant((c) => {
    c.spec.versions.push({ ...c.spec.versions[0], name: 'v2', storage: false });
    delete schemaOf(c).properties.spec.type;
  });
  assert.deepEqual(errorsOf(shared), ['spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields']);
  const differing = variant((c) => {
    c.spec.versions.push({ name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: crontabSchema() } });
    delete schemaOf(c, 1).properties.spec.type;
  });
  assert.deepEqual(errorsOf(differing), ['spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields']);
});

test('schema rules beyond structural: $ref, additionalProperties with properties, preserve-unknown-fields false, uniqueItems', () => {
  const errors = errorsOf(variant((c) => {
    const s = schemaOf(c).properties.spec.properties;
    s.ref = { $ref: '#/definitions/x' };
    s.both = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } };
    s.keep = { type: 'object', 'x-kubernetes-preserve-unknown-fields': false };
    s.set = { type: 'array', uniqueItems: true, items: { type: 'string' } };
    s.nil = { type: 'null' };
  }));
  assert.deepEqual(errors, [
    'spec.validation.openAPIV3Schema.properties[spec].properties[ref].$ref: Forbidden: $ref is not supported',
    'spec.validation.openAPIV3Schema.properties[spec].properties[both].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
    'spec.validation.openAPIV3Schema.properties[spec].properties[keep].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined',
    'spec.validation.openAPIV3Schema.properties[spec].properties[set].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
    'spec.validation.openAPIV3Schema.properties[spec].properties[nil].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"',
    'spec.validation.openAPIV3Schema.properties[spec].properties[nil].type: Forbidden: type cannot be set to null, use nullable as an alternative',
  ]);
});

test('the root is an object, not nullable, and with status enabled carries only what status extraction keeps', () => {
  assert.deepEqual(errorsOf(variant((c) => (schemaOf(c).type = 'string'))), ['spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root']);
  assert.deepEqual(errorsOf(variant((c) => (schemaOf(c).nullable = true))), ['spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root']);
  const withStatus = variant((c) => {
    c.spec.versions[0].subresources = { status: {} };
    schemaOf(c).maxProperties = 3;
  });
  const [line, ...rest] = errorsOf(withStatus);
  assert.deepEqual(rest, []);
  assert.match(line ?? '', /^spec\.validation\.openAPIV3Schema: Invalid value: .*: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/);
});

test('defaults: forbidden in the root metadata, validated against their schema, pruned', () => {
  const errors = errorsOf(variant((c) => {
    const s = schemaOf(c);
    s.properties.metadata = { type: 'object', properties: { name: { type: 'string', default: 'x' } } };
    s.properties.spec.properties.replicas.default = 20;
    s.properties.spec.properties.image.default = 5;
  }));
  assert.deepEqual(errors, [
    'spec.validation.openAPIV3Schema.properties[spec].properties[image].default: Invalid value: "integer":  in body must be of type string: "integer"',
    'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: 20:  in body should be less than or equal to 10',
    'spec.validation.openAPIV3Schema.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata',
  ]);
  const unpruned = errorsOf(variant((c) => (schemaOf(c).properties.spec.default = { image: 'nginx', extra: true })));
  assert.deepEqual(unpruned, ['spec.validation.openAPIV3Schema.properties[spec].default: Invalid value: map[string]interface {}{"extra":true, "image":"nginx"}: must not have unknown fields']);
});

test('list-type map: keys are required or defaulted scalar properties', () => {
  const list = (items: Entry, keys: string[] = ['name']): KObject => variant((c) => {
    schemaOf(c).properties.spec.properties.ports = { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys, items };
  });
  const at = 'spec.validation.openAPIV3Schema.properties[spec].properties[ports]';
  assert.deepEqual(errorsOf(list({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } })), []);
  assert.deepEqual(errorsOf(list({ type: 'object', properties: { name: { type: 'string' } } })), [`${at}.items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`]);
  assert.deepEqual(errorsOf(list({ type: 'object', required: ['name'], properties: { name: { type: 'object' } } })), [`${at}.items.properties[name].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`]);
  assert.deepEqual(errorsOf(list({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, ['name', 'port'])), [`${at}.x-kubernetes-list-map-keys: Invalid value: []string{"name", "port"}: entries must all be names of item properties`]);
  const noKeys = variant((c) => (schemaOf(c).properties.spec.properties.ports = { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { a: { type: 'string' } } } }));
  assert.deepEqual(errorsOf(noKeys), [`${at}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]);
  const wrongType = variant((c) => (schemaOf(c).properties.spec.properties.ports = { type: 'string', 'x-kubernetes-list-type': 'bag' }));
  assert.deepEqual(errorsOf(wrongType), [
    `${at}.type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
    `${at}.x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
  ]);
});

test('x-kubernetes-validations: static checks here, compilation by the CEL engine callback', () => {
  const seen: string[] = [];
  const checkRules = (_schema: Record<string, unknown>, path: string): FieldError[] => {
    seen.push(path);
    return [{ type: 'FieldValueInvalid', field: `${path}.x-kubernetes-validations[0].rule`, message: 'Invalid value: "compile error"' }];
  };
  const withRule = variant((c) => (schemaOf(c).properties.spec['x-kubernetes-validations'] = [{ rule: 'self.replicas > 0' }]));
  assert.deepEqual(lines(validateCrd(withRule, { checkRules })), ['spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: "compile error"']);
  assert.deepEqual(seen, ['spec.validation.openAPIV3Schema']);
  const blank = variant((c) => (schemaOf(c).properties.spec['x-kubernetes-validations'] = [{ rule: ' ' }, { rule: 'a\nb' }, { rule: 'x', reason: 'Bad' }]));
  assert.deepEqual(lines(validateCrd(blank, { checkRules })), [
    'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified',
    'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].message: Required value: message must be specified if rule contains line breaks',
    'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].reason: Unsupported value: "Bad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
  ]);
});

test('subresources: scale paths under .spec and .status', () => {
  const scale = (s: Entry): string[] => errorsOf(variant((c) => (c.spec.versions[0].subresources = { scale: s })));
  assert.deepEqual(scale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' }), []);
  assert.deepEqual(scale({ specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' }), [
    'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
    'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
    'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
  ]);
  assert.deepEqual(scale({}), ['spec.subresources.scale.specReplicasPath: Required value', 'spec.subresources.scale.statusReplicasPath: Required value']);
});

test('additionalPrinterColumns: name, a known type and format, a JSON path', () => {
  const columns = errorsOf(variant((c) => (c.spec.versions[0].additionalPrinterColumns = [{ name: 'Spec', type: 'text', format: 'uuid', jsonPath: 'spec.cronSpec' }, { type: '' }])));
  assert.deepEqual(columns, [
    'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    'spec.additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
    'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.cronSpec": must be a simple json path starting with .',
    'spec.additionalPrinterColumns[1].name: Required value',
    'spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string',
    'spec.additionalPrinterColumns[1].JSONPath: Required value',
  ]);
});

test('conversion: None or Webhook; a webhook needs a client config and review versions kube speaks', () => {
  const conv = (conversion: Entry): string[] => errorsOf(variant((c) => (c.spec.conversion = conversion)));
  assert.deepEqual(conv({ strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } }, conversionReviewVersions: ['v1'] } }), []);
  assert.deepEqual(conv({ strategy: 'Magic' }), ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']);
  assert.deepEqual(conv({ strategy: 'Webhook' }), ['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook', 'spec.conversion.conversionReviewVersions: Required value']);
  assert.deepEqual(conv({ strategy: 'Webhook', webhook: { clientConfig: {}, conversionReviewVersions: ['v2', 'v2'] } }), [
    'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
    'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
    'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
  ]);
  assert.deepEqual(conv({ strategy: 'None', webhook: { clientConfig: { url: 'https://x.example.com' }, conversionReviewVersions: ['v1'] } }), [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]);
  assert.deepEqual(conv({ strategy: 'Webhook', webhook: { clientConfig: { url: 'http://x.example.com/convert' }, conversionReviewVersions: ['v1'] } }), [
    'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
  ]);
});

test('preserveUnknownFields: true is refused in v1', () => {
  assert.deepEqual(errorsOf(variant((c) => (c.spec.preserveUnknownFields = true))), [
    'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
  ]);
});

test('deprecationWarning: only on deprecated versions, at most 256 bytes', () => {
  assert.deepEqual(errorsOf(variant((c) => (c.spec.versions[0].deprecationWarning = 'old'))), ['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions']);
  const long = 'x'.repeat(257);
  assert.deepEqual(errorsOf(variant((c) => Object.assign(c.spec.versions[0], { deprecated: true, deprecationWarning: long }))), [`spec.versions[0].deprecationWarning: Invalid value: "${long}": must be <= 256 characters long`]);
});

test('storedVersions: present, with the storage version, naming only listed versions', () => {
  assert.deepEqual(errorsOf(variant((c) => (c.status.storedVersions = []))), ['status.storedVersions: Invalid value: []string{}: must have at least one stored version']);
  assert.deepEqual(errorsOf(variant((c) => (c.status.storedVersions = ['v0']))), [
    'status.storedVersions: Invalid value: []string{"v0"}: must have the storage version v1',
    'status.storedVersions[0]: Invalid value: "v0": must appear in spec.versions',
  ]);
});

test('protected groups need the API approval annotation', () => {
  const protectedCrd = variant((c) => { c.spec.group = 'stable.k8s.io'; c.metadata.name = 'crontabs.stable.k8s.io'; });
  assert.deepEqual(errorsOf(protectedCrd), ['metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111']);
  (protectedCrd.metadata as Entry).annotations = { 'api-approved.kubernetes.io': 'unapproved, testing only' };
  assert.deepEqual(errorsOf(protectedCrd), []);
});

test('update: group and plural immutable; scope and kind too once established', () => {
  const old = crontab();
  const moved = variant((c) => { c.spec.group = 'other.example.com'; c.spec.scope = 'Cluster'; c.metadata.name = 'crontabs.other.example.com'; });
  assert.deepEqual(lines(validateCrdUpdate(moved, old)), ['spec.group: Invalid value: "other.example.com": field is immutable']);
  (old.status as Entry).conditions = [{ type: 'Established', status: 'True' }];
  assert.deepEqual(lines(validateCrdUpdate(moved, old)), ['spec.scope: Invalid value: "Cluster": field is immutable', 'spec.group: Invalid value: "other.example.com": field is immutable']);
});

test('update: what the stored CRD already got away with stays allowed', () => {
  const legacy = (c: Entry): void => { delete c.spec.versions[0].schema; c.spec.preserveUnknownFields = true; };
  const old = variant(legacy);
  const next = variant((c) => { legacy(c); c.spec.names.shortNames = ['cts']; });
  assert.deepEqual(lines(validateCrdUpdate(next, old)), []);
  const pruning = variant((c) => delete c.spec.versions[0].schema);
  assert.deepEqual(lines(validateCrdUpdate(pruning, old)), ['spec.versions[0].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned']);
  assert.deepEqual(errorsOf(pruning), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
});

test('defaults inside an embedded resource\'s metadata must leave it valid; none inside its additionalProperties', () => {
  const errors = errorsOf(variant((c) => {
    schemaOf(c).properties.spec.properties.template = {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', default: 'a/b' }, labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } } },
        spec: { type: 'object', default: { a: 1 }, properties: { a: { type: 'string' } } },
      },
    };
  }));
  const at = 'spec.validation.openAPIV3Schema.properties[spec].properties[template]';
  assert.deepEqual(errors, [
    `${at}.properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`,
    `${at}.properties[spec].default.a: Invalid value: "integer": a in body must be of type string: "integer"`,
    `${at}.properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`,
  ]);
});

test('rules on defaults: evaluated by the callback only for defaults that are otherwise valid', () => {
  const calls: string[] = [];
  const checkDefaultRules = (_s: Record<string, unknown>, value: unknown, path: string): FieldError[] => {
    calls.push(`${path}=${JSON.stringify(value)}`);
    return [{ type: 'FieldValueInvalid', field: path, message: 'Invalid value: "object": rule failed' }];
  };
  const crd = variant((c) => {
    schemaOf(c).properties.spec.properties.replicas.default = 3;
    schemaOf(c).properties.spec.properties.image.default = 7;
  });
  assert.deepEqual(lines(validateCrd(crd, { checkDefaultRules })), [
    'spec.validation.openAPIV3Schema.properties[spec].properties[image].default: Invalid value: "integer":  in body must be of type string: "integer"',
    'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: "object": rule failed',
  ]);
  assert.deepEqual(calls, ['spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default=3']);
});
