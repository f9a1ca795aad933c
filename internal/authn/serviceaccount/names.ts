// Names kube gives service-account identities (k8s.io/apiserver pkg/authentication/serviceaccount).
import type { UserInfo } from '../user-info.ts';

/** The `iss` of secret-based (legacy) tokens. */
export const legacyIssuer = 'kubernetes/serviceaccount';
/** The group of every service account. */
export const allServiceAccountsGroup = 'system:serviceaccounts';
/** Extra keys of a token bound to a pod. */
export const podNameExtraKey = 'authentication.kubernetes.io/pod-name';
export const podUidExtraKey = 'authentication.kubernetes.io/pod-uid';

const usernamePrefix = 'system:serviceaccount:';

/** `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${usernamePrefix}${namespace}:${name}`;
}

/** The namespace and name of a service-account user name, or undefined when it is not one. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(usernamePrefix)) return undefined;
  const parts = username.slice(usernamePrefix.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

/** What a validated token says about its service account. */
export interface ServiceAccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** Set on tokens bound to a pod. */
  readonly podName?: string;
  readonly podUid?: string;
}

/**
 * The user of a service account: kube 1.28 adds pod-name and pod-uid when the token is bound to a
 * pod (credential-id and node claims arrived after 1.28).
 */
export function serviceAccountUser(info: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (info.podName && info.podUid) {
    extra[podNameExtraKey] = [info.podName];
    extra[podUidExtraKey] = [info.podUid];
  }
  return {
    username: serviceAccountUsername(info.namespace, info.name),
    uid: info.uid,
    groups: [allServiceAccountsGroup, `${allServiceAccountsGroup}:${info.namespace}`],
    extra,
  };
}
