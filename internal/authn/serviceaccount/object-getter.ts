// How the service-account authenticator asks the store whether a token's objects still exist.
// Injected, so the authenticator knows nothing of the registry (and tests use a map).

/** The identity of a stored object: enough to tell "the same object" from "recreated under the name". */
export interface ObjectIdentity {
  readonly uid: string;
  /** RFC 3339, set once deletion has begun. */
  readonly deletionTimestamp?: string;
}

/** A Secret's identity and, for a service-account-token Secret, its `data.token` decoded. */
export interface SecretIdentity extends ObjectIdentity {
  readonly token?: string;
}

/**
 * Reads objects by namespace and name. Each method resolves to undefined when the object does not
 * exist, and rejects when the store cannot answer (the token is then refused: 401).
 */
export interface ServiceAccountObjectGetter {
  getServiceAccount(namespace: string, name: string): Promise<ObjectIdentity | undefined>;
  getPod(namespace: string, name: string): Promise<ObjectIdentity | undefined>;
  getSecret(namespace: string, name: string): Promise<SecretIdentity | undefined>;
}

/** Whether an object being deleted has been so for longer than the grace kube allows its tokens. */
export function deletedLongAgo(object: ObjectIdentity, nowMs: number, graceSeconds: number): boolean {
  if (object.deletionTimestamp === undefined) return false;
  return Date.parse(object.deletionTimestamp) < nowMs - graceSeconds * 1000;
}
