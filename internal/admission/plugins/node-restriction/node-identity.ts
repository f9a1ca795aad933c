// Which node a request comes from (kube's default NodeIdentifier): a user named
// `system:node:<name>` who is in the group `system:nodes`. Anyone else is not a node, and the
// plugin leaves them alone.
import type { UserInfo } from '../../../authn/user-info.ts';

/** The user name prefix of node credentials. */
export const nodeUserPrefix = 'system:node:';
/** The group every node credential carries. */
export const nodesGroup = 'system:nodes';

/** The node's name ('' when the user name has nothing after the prefix), or undefined for non-nodes. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(nodeUserPrefix)) return undefined;
  if (!user.groups.includes(nodesGroup)) return undefined;
  return user.username.slice(nodeUserPrefix.length);
}
