// A read-only view of a pod's metadata and spec as plain JSON, with the accessors checks share.
// Missing and null fields read as absent, as Go's nil pointers do after decoding.

/** A JSON object. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** The parts of a pod (or pod template) the checks read. */
export interface PodView {
  /** metadata.annotations (only string values are kept). */
  readonly annotations: Readonly<Record<string, string>>;
  /** The pod spec; an empty object when absent. */
  readonly spec: JsonObject;
}

/** The value as a JSON object, or undefined when it is absent, null or not an object. */
export function objectOf(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** The value as an array, empty when it is not one. */
export function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value as a string, '' when it is not one (Go's zero value). */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A pod view of metadata and spec (either may be missing or malformed). */
export function podView(metadata: unknown, spec: unknown): PodView {
  const annotations: Record<string, string> = {};
  const raw = objectOf(objectOf(metadata)?.annotations) ?? {};
  for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') annotations[key] = value;
  return { annotations, spec: objectOf(spec) ?? {} };
}

/** Every container, in kube's order: init containers, containers, then ephemeral containers. */
export function allContainers(spec: JsonObject): JsonObject[] {
  const lists = [spec.initContainers, spec.containers, spec.ephemeralContainers];
  return lists.flatMap((list) => arrayOf(list).map((c) => objectOf(c) ?? {}));
}

/** A container's name ('' when unset). */
export function containerName(container: JsonObject): string {
  return stringOf(container.name);
}

/** A container's securityContext, or undefined. */
export function containerSecurityContext(container: JsonObject): JsonObject | undefined {
  return objectOf(container.securityContext);
}

/** The pod-level securityContext, or undefined. */
export function podSecurityContext(spec: JsonObject): JsonObject | undefined {
  return objectOf(spec.securityContext);
}

/** Whether the pod declares itself a Windows pod (spec.os.name), which some restricted checks exempt. */
export function isWindowsPod(spec: JsonObject): boolean {
  return objectOf(spec.os)?.name === 'windows';
}
