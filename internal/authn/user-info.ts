// Who a request is, as authentication establishes it (k8s.io/apiserver's user.Info): what
// impersonation may replace and what authorization, audit and admission read.

/** The identity of a request's caller. */
export interface UserInfo {
  /** The user name (`system:serviceaccount:<ns>:<name>`, a certificate's CN, `system:anonymous` ...). */
  readonly username: string;
  /** A unique id, more stable than the name; '' when the method has none. */
  readonly uid: string;
  /** Groups, `system:authenticated` or `system:unauthenticated` included. */
  readonly groups: readonly string[];
  /** Extra attributes for authorizers (keys lowercase), e.g. `authentication.kubernetes.io/pod-name`. */
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/** The groups every authenticated user gets and the anonymous user has. */
export const systemAuthenticated = 'system:authenticated';
export const systemUnauthenticated = 'system:unauthenticated';
export const systemAnonymous = 'system:anonymous';
/** The group whose members may do anything: kube-apiserver puts a privileged-groups authorizer for it before the configured modes. */
export const systemMasters = 'system:masters';
