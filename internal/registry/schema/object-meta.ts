import { builtinSchema } from './builtin-schemas.ts';
import type { FieldSchema } from './field-schema.ts';

/** The schema of `metadata` shared by every object kind (ObjectMeta of the v1.28 OpenAPI document). */
export const objectMetaSchema: FieldSchema = builtinSchema('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
