// The opaque CEL types of Kubernetes' libraries (URL, Quantity and the authorizer's builders),
// as @bufbuild/cel sees them. @bufbuild/cel knows only CEL's own values and protobuf messages,
// so each opaque type is a small message declared here at load time under kube's type name
// (`kubernetes.URL`, `kubernetes.authorization.Decision`, ...): methods dispatch on that name,
// and `==` compares the fields. Fields are the value's whole state (a URL's text, a quantity's
// exact value), never references, so two equal values compare equal.
import { create, createFileRegistry, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { reflect, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import { objectType, type CelObjectType } from '@bufbuild/cel';

const stringField = 9;
const boolField = 8;
const messageField = 11;
const optionalLabel = 1;

type FieldSpec = readonly [name: string, kind: typeof stringField | typeof boolField | typeof messageField, typeName?: string];

function messageSpec(name: string, fields: readonly FieldSpec[]) {
  return {
    name,
    field: fields.map(([fieldName, kind, typeName], index) => ({
      name: fieldName,
      jsonName: fieldName,
      number: index + 1,
      type: kind,
      label: optionalLabel,
      ...(typeName === undefined ? {} : { typeName }),
    })),
  };
}

/** The principal fields every authorizer builder carries: empty for the requester, else a service account. */
const principal: readonly FieldSpec[] = [
  ['serviceAccountNamespace', stringField],
  ['serviceAccountName', stringField],
];

const kubernetesFile = create(FileDescriptorProtoSchema, {
  name: 'orch/cel/kubernetes.proto',
  package: 'kubernetes',
  syntax: 'proto3',
  messageType: [
    messageSpec('URL', [['url', stringField]]),
    // The exact value, "<digits>e<exponent>" with trailing zeros stripped, so == is Quantity.Cmp == 0.
    messageSpec('Quantity', [['value', stringField]]),
  ],
});

const authorizationFile = create(FileDescriptorProtoSchema, {
  name: 'orch/cel/kubernetes_authorization.proto',
  package: 'kubernetes.authorization',
  syntax: 'proto3',
  messageType: [
    messageSpec('ResourceCheck', [
      ...principal,
      ['group', stringField],
      ['resource', stringField],
      ['subresource', stringField],
      ['namespace', stringField],
      ['name', stringField],
    ]),
    messageSpec('Authorizer', [...principal, ['requestResource', messageField, '.kubernetes.authorization.ResourceCheck']]),
    messageSpec('PathCheck', [...principal, ['path', stringField]]),
    messageSpec('GroupCheck', [...principal, ['group', stringField]]),
    messageSpec('Decision', [
      ['allowed', boolField],
      ['reason', stringField],
      ['error', stringField],
    ]),
  ],
});

const registry = createFileRegistry(
  createFileRegistry(kubernetesFile, () => undefined),
  createFileRegistry(authorizationFile, () => undefined),
);

function messageDesc(typeName: string): DescMessage {
  const desc = registry.getMessage(typeName);
  if (desc === undefined) throw new Error(`cel library: message ${typeName} not declared`);
  return desc;
}

/** Descriptors of the opaque types, for building values. */
export const descriptors = {
  url: messageDesc('kubernetes.URL'),
  quantity: messageDesc('kubernetes.Quantity'),
  authorizer: messageDesc('kubernetes.authorization.Authorizer'),
  pathCheck: messageDesc('kubernetes.authorization.PathCheck'),
  groupCheck: messageDesc('kubernetes.authorization.GroupCheck'),
  resourceCheck: messageDesc('kubernetes.authorization.ResourceCheck'),
  decision: messageDesc('kubernetes.authorization.Decision'),
} as const;

/** The CEL types of the opaque values, for declaring variables (`authorizer`) and overloads. */
export const libraryTypes: Readonly<Record<keyof typeof descriptors, CelObjectType>> = {
  url: objectType(descriptors.url),
  quantity: objectType(descriptors.quantity),
  authorizer: objectType(descriptors.authorizer),
  pathCheck: objectType(descriptors.pathCheck),
  groupCheck: objectType(descriptors.groupCheck),
  resourceCheck: objectType(descriptors.resourceCheck),
  decision: objectType(descriptors.decision),
};

/** Field values of an opaque message: strings, booleans or nested messages. */
export type OpaqueFields = Readonly<Record<string, string | boolean | ReflectMessage>>;

/** Builds an opaque value of the given type from its fields. */
export function opaqueValue(desc: DescMessage, fields: OpaqueFields): ReflectMessage {
  const value = reflect(desc, create(desc));
  for (const [name, fieldValue] of Object.entries(fields)) {
    const field = desc.fields.find((candidate) => candidate.name === name);
    if (field === undefined) throw new Error(`cel library: ${desc.typeName} has no field ${name}`);
    value.set(field, fieldValue);
  }
  return value;
}

/** A string field of an opaque value ('' when unset). */
export function stringOf(value: ReflectMessage, name: string): string {
  const got = fieldOf(value, name);
  return typeof got === 'string' ? got : '';
}

/** A boolean field of an opaque value (false when unset). */
export function boolOf(value: ReflectMessage, name: string): boolean {
  return fieldOf(value, name) === true;
}

/** A message field of an opaque value, or undefined when unset. */
export function messageOf(value: ReflectMessage, name: string): ReflectMessage | undefined {
  const field = value.desc.fields.find((candidate) => candidate.name === name);
  if (field === undefined || field.fieldKind !== 'message' || !value.isSet(field)) return undefined;
  return value.get(field);
}

function fieldOf(value: ReflectMessage, name: string): unknown {
  const field = value.desc.fields.find((candidate) => candidate.name === name);
  if (field === undefined) throw new Error(`cel library: ${value.desc.typeName} has no field ${name}`);
  return value.get(field);
}
