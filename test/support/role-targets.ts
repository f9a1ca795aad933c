// For e2e tests that run every case through the leader and through a follower, over HTTP/1.1
// and HTTP/2: resolves the roles of a running cluster into clients.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClusterFixture } from './cluster-fixture.ts';
import type { TestApiClient } from './api-client.ts';
import { RawClient, type Protocol } from './raw-client.ts';

/** The replica roles a test runs through. */
export type Role = 'leader' | 'follower';

/** One replica to test through, and another replica to write through. */
export interface RoleTarget {
  readonly role: Role;
  readonly protocol: Protocol;
  /** Reads (and watches) go here, over `protocol`. */
  readonly client: RawClient;
  /** Writes go to another replica, so reads prove they see what another replica acknowledged. */
  readonly writer: TestApiClient;
  /** A namespace name unique to this role and protocol. */
  readonly namespace: string;
}

/** Waits for a leader and builds a target per role and protocol; close them with `closeTargets`. */
export async function roleTargets(fixture: ClusterFixture, namespacePrefix: string): Promise<RoleTarget[]> {
  let leader: string | null = null;
  for (let i = 0; i < 200 && leader === null; i++) {
    leader = await fixture.leader();
    if (leader === null) await sleep(100);
  }
  if (leader === null) throw new Error('no leader');
  const names = fixture.cluster.replicas.map((r) => r.spec.name);
  const leaderAt = names.indexOf(leader);
  const followerAt = names.findIndex((n) => n !== leader);
  const targets: RoleTarget[] = [];
  for (const [role, at, writeAt] of [['leader', leaderAt, followerAt], ['follower', followerAt, leaderAt]] as const) {
    const replica = fixture.cluster.replicas[at];
    const writer = fixture.clients[writeAt];
    if (replica === undefined || writer === undefined) throw new Error('assert: replica missing');
    for (const protocol of ['http/1.1', 'h2'] as const) {
      const client = new RawClient(replica.apiUrl, fixture.cluster.caPem, fixture.cluster.adminToken, protocol);
      targets.push({ role, protocol, client, writer, namespace: `${namespacePrefix}-${role}-${protocol === 'h2' ? 'h2' : 'h1'}` });
    }
  }
  return targets;
}

/** Closes the clients of `roleTargets`. */
export function closeTargets(targets: readonly RoleTarget[]): void {
  for (const t of targets) t.client.close();
}
