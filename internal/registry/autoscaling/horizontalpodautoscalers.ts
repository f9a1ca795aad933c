// HorizontalPodAutoscalers as kube-apiserver 1.28 serves them (pkg/registry/autoscaling/
// horizontalpodautoscaler): one store, kept as autoscaling/v2 and served as autoscaling/v1 too
// through the conversion of hpa-conversion.ts, with the status sub-resource. No controller acts on
// them yet: they are stored, validated, defaulted and shown.
import { StatusError } from '../errors/status-error.ts';
import type { KObject, ResourceDeclaration } from '../schema/declaration.ts';
import type { FieldError } from '../schema/field-errors.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { conditionsAnnotation, hpaFromV1, hpaToV1, metricStatusesAnnotation } from './hpa-conversion.ts';
import { defaultHpa } from './hpa-defaults.ts';
import { hpaColumns } from './hpa-printer.ts';
import { validateHpa } from './hpa-validation.ts';

const shared = {
  group: 'autoscaling',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'subdomain',
  subresources: { status: true },
  tracksGeneration: true,
} as const;

/** HorizontalPodAutoscalers (autoscaling/v2, the storage version). */
export const horizontalpodautoscalers: ResourceDeclaration = {
  ...shared,
  version: 'v2',
  description: 'HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler, which automatically manages the replica count of any resource implementing the scale subresource based on the metrics specified.',
  fields: builtinFields('io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler'),
  printerColumns: hpaColumns((o) => o),
  strategy: {
    prepareForCreate(o) {
      o.status = { desiredReplicas: 0 };
    },
    applyDefaults: defaultHpa,
    validate: validateHpa,
  },
};

/** The v2 form of a v1 object for validation and printing; undefined when its annotations do not decode (the write answers 400 then). */
function asV2(o: KObject): KObject | undefined {
  try {
    return hpaFromV1(o);
  } catch (err) {
    if (err instanceof StatusError) return undefined;
    throw err;
  }
}

// The status-carrying annotations are the status: a create clears them, and a write of the main
// resource keeps the stored ones, as kube-apiserver keeps the stored status. Before that, every
// round-trip annotation of the body is decoded, as kube-apiserver decodes them with the body: one
// Go cannot decode is the 400 of a bad body, on dry run too and before any validation.
const statusAnnotations = [metricStatusesAnnotation, conditionsAnnotation];

function prepareV1ForCreate(o: KObject): void {
  hpaFromV1(o);
  o.status = { currentReplicas: 0, desiredReplicas: 0 };
  const annotations = o.metadata.annotations;
  if (!annotations) return;
  for (const a of statusAnnotations) delete annotations[a];
  if (Object.keys(annotations).length === 0) delete o.metadata.annotations;
}

function prepareV1ForUpdate(o: KObject, old: KObject): void {
  hpaFromV1(o);
  const annotations = { ...(o.metadata.annotations ?? {}) };
  for (const a of statusAnnotations) {
    const kept = old.metadata.annotations?.[a];
    if (kept === undefined) delete annotations[a];
    else annotations[a] = kept;
  }
  if (Object.keys(annotations).length === 0) delete o.metadata.annotations;
  else o.metadata.annotations = annotations;
}

function validateV1(o: KObject): FieldError[] {
  const v2 = asV2(o);
  return v2 === undefined ? [] : validateHpa(v2);
}

/** HorizontalPodAutoscalers (autoscaling/v1): the same objects, kept in the v2 collection. */
export const horizontalpodautoscalersV1: ResourceDeclaration = {
  ...shared,
  version: 'v1',
  description: 'configuration of a horizontal pod autoscaler.',
  fields: builtinFields('io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler'),
  printerColumns: hpaColumns((o) => asV2(o) ?? o),
  strategy: {
    prepareForCreate: prepareV1ForCreate,
    prepareForUpdate: prepareV1ForUpdate,
    applyDefaults(o) {
      const spec = o.spec;
      if (typeof spec === 'object' && spec !== null && !Array.isArray(spec) && ((spec as Record<string, unknown>).minReplicas ?? null) === null) (spec as Record<string, unknown>).minReplicas = 1;
    },
    validate: validateV1,
  },
  storedAs: { decl: horizontalpodautoscalers, toStored: hpaFromV1, fromStored: hpaToV1 },
};
