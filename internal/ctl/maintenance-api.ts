// The maintenance API of a replica (docs/operations.md), as orchctl calls it: its answers' types
// and one function per call. Leader-only calls go through the load-balancing client, which
// retries a follower's 503 on another replica.
import type { OrchClient } from '../client/client.ts';

// The answers' types are the server's own (one declaration of the wire format).
import type { Member, MembersView, ReplicaStatus } from '../apiserver/maintenance/backend.ts';

export type { Member, MembersView, ReplicaStatus };

/** The path of the maintenance API's root. */
export const maintenanceRoot = '/orch/v1';

/** The path of one member. */
function memberPath(name: string): string {
  return `${maintenanceRoot}/members/${encodeURIComponent(name)}`;
}

export function getStatus(client: OrchClient, signal: AbortSignal): Promise<ReplicaStatus> {
  return client.get<ReplicaStatus>(`${maintenanceRoot}/status`, { signal });
}

export function getMembers(client: OrchClient, signal: AbortSignal): Promise<MembersView> {
  return client.get<MembersView>(`${maintenanceRoot}/members`, { signal });
}

export function addMember(client: OrchClient, member: { name: string; peerAddress: string }, signal: AbortSignal): Promise<Member> {
  return client.create<Member>(`${maintenanceRoot}/members`, { name: member.name, peerAddress: member.peerAddress, learner: true }, { signal });
}

export function promoteMember(client: OrchClient, name: string, signal: AbortSignal): Promise<Member> {
  return client.create<Member>(`${memberPath(name)}/promote`, {}, { signal });
}

export function removeMember(client: OrchClient, name: string, signal: AbortSignal): Promise<{ removed: string }> {
  return client.delete<{ removed: string }>(memberPath(name), { signal });
}

export function transferLeader(client: OrchClient, target: string, signal: AbortSignal): Promise<{ leader: string }> {
  return client.create<{ leader: string }>(`${maintenanceRoot}/leader`, { target }, { signal });
}
