import { atomicList, bool, mapList, mapOf, obj, open, setList, str, time, withMarkers, type FieldSchema } from './field-schema.ts';
import { podSpecSchema } from './pod-spec-schema.ts';

/** The schema of `metadata` shared by every object kind. */
export const objectMetaSchema: FieldSchema = obj(
  {
    name: str('Unique name within a namespace (or the cluster for cluster-scoped kinds).'),
    generateName: str('Prefix for a server-generated name.'),
    namespace: str('Namespace of a namespaced object.'),
    uid: str('Server-generated unique identifier.'),
    resourceVersion: str('Opaque version of the stored object.'),
    generation: { type: 'integer', format: 'int64', description: 'Sequence number of spec changes.' },
    creationTimestamp: time('Time of creation.'),
    deletionTimestamp: time('Time of the first delete request.'),
    deletionGracePeriodSeconds: { type: 'integer', format: 'int64' },
    labels: mapOf(str(), 'Map of string keys and values for selecting objects.'),
    annotations: mapOf(str(), 'Unstructured key-value metadata.'),
    finalizers: setList(str(), 'Must be empty before the object is removed.'),
    ownerReferences: mapList(
      withMarkers(
        obj({ apiVersion: str(), kind: str(), name: str(), uid: str(), controller: bool(), blockOwnerDeletion: bool() }, { required: ['apiVersion', 'kind', 'name', 'uid'] }),
        { 'x-kubernetes-map-type': 'atomic' },
      ),
      ['uid'],
    ),
    managedFields: atomicList(
      obj({ manager: str(), operation: str(), apiVersion: str(), time: time(), fieldsType: str(), fieldsV1: open(), subresource: str() }),
    ),
    selfLink: str(),
  },
  { description: 'Standard object metadata.' },
);

/** A label selector (`matchLabels`, `matchExpressions`). */
export const labelSelectorSchema: FieldSchema = withMarkers(
  obj({
    matchLabels: mapOf(str()),
    matchExpressions: atomicList(obj({ key: str(), operator: str(), values: atomicList(str()) }, { required: ['key', 'operator'] })),
  }),
  { 'x-kubernetes-map-type': 'atomic' },
);

/** A reference to an object (`involvedObject`, `regarding`). */
export const objectReferenceSchema: FieldSchema = obj({
  kind: str(),
  namespace: str(),
  name: str(),
  uid: str(),
  apiVersion: str(),
  resourceVersion: str(),
  fieldPath: str(),
});

/** A pod template (`spec.template` of workloads); the pod spec is only partly described. */
export const podTemplateSchema: FieldSchema = obj({ metadata: objectMetaSchema, spec: podSpecSchema });

/** A plain integer count field that may be large. */
export const int64: FieldSchema = { type: 'integer', format: 'int64' };

