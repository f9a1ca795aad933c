// The acceptance matrix's engine: each principal (a credential of one authenticator, and whether
// RBAC grants its user list and create on configmaps in one namespace) lists and creates through
// every replica; each answer is judged exactly (200/201 with the right kind, or kube's 403 body
// naming the user) and counted, so a run can say: 0 wrongly allowed, 0 wrongly denied.
import { isDeepStrictEqual } from 'node:util';
import type { LocalCluster } from '../../internal/cluster/local-cluster.ts';
import { callReplica, forbiddenStatus, parsed, type Answer, type Credential } from './auth-https.ts';

/** Who asks, how, and whether the Role grants it. */
export interface Principal {
  /** The authenticator, for messages and ConfigMap names. */
  readonly method: string;
  /** The user the server must see (RBAC's 403 names it). */
  readonly username: string;
  readonly allowed: boolean;
  readonly credential: Credential;
}

/** The running count of every request the matrix made. */
export interface MatrixTally {
  requests: number;
  rightlyAllowed: number;
  rightlyDenied: number;
  readonly wronglyAllowed: string[];
  readonly wronglyDenied: string[];
  /** Any other answer: a 401, a 500, a 403 with another body. */
  readonly otherwise: string[];
}

/** Runs principals through the matrix; `tally` counts over every run. */
export interface MatrixRunner {
  readonly tally: MatrixTally;
  /** Lists and creates as each principal through each replica, in order; returns the mismatches (none expected). */
  run(principals: readonly Principal[]): Promise<string[]>;
}

/** The two principals of one method: `with` is granted, `without` is not. */
export function pair(method: string, withUser: string, withCredential: Credential, withoutUser: string, withoutCredential: Credential): Principal[] {
  return [
    { method, username: withUser, allowed: true, credential: withCredential },
    { method, username: withoutUser, allowed: false, credential: withoutCredential },
  ];
}

/** A matrix over configmaps in `namespace` of `cluster`, through every replica. */
export function matrixRunner(cluster: LocalCluster, namespace: string): MatrixRunner {
  const configmaps = `/api/v1/namespaces/${namespace}/configmaps`;
  const tally: MatrixTally = { requests: 0, rightlyAllowed: 0, rightlyDenied: 0, wronglyAllowed: [], wronglyDenied: [], otherwise: [] };
  let serial = 0;
  const configMapBody = (principal: Principal, replica: number): unknown => {
    const slug = `${principal.method}-${principal.username}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${slug}-r${replica}-${++serial}` }, data: { by: principal.username } };
  };
  /** What was wrong with one answer, or null; counts it. */
  const judge = (principal: Principal, verb: 'list' | 'create', answer: Answer): string | null => {
    tally.requests++;
    const what = `${principal.method} ${principal.username} ${verb}`;
    const body = parsed(answer) as { kind?: string } | string;
    if (principal.allowed) {
      const expected = verb === 'list' ? { status: 200, kind: 'ConfigMapList' } : { status: 201, kind: 'ConfigMap' };
      if (answer.status === expected.status && typeof body === 'object' && body.kind === expected.kind) {
        tally.rightlyAllowed++;
        return null;
      }
      if (answer.status === 403) {
        tally.wronglyDenied.push(`${what}: ${answer.body}`);
        return `wrongly denied: ${what}`;
      }
    } else if (answer.status === 403 && isDeepStrictEqual(body, forbiddenStatus(principal.username, verb, 'configmaps', namespace))) {
      tally.rightlyDenied++;
      return null;
    } else if (answer.status >= 200 && answer.status < 300) {
      tally.wronglyAllowed.push(what);
      return `wrongly allowed: ${what}`;
    }
    tally.otherwise.push(`${what}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return `${what}: ${answer.status} ${answer.body.slice(0, 300)}`;
  };
  return {
    tally,
    async run(principals) {
      const wrong: string[] = [];
      for (const principal of principals) {
        for (const replica of cluster.replicas.keys()) {
          const list = await callReplica(cluster, replica, configmaps, principal.credential);
          const created = await callReplica(cluster, replica, configmaps, { ...principal.credential, method: 'POST', body: configMapBody(principal, replica) });
          for (const [verb, answer] of [['list', list], ['create', created]] as const) {
            const problem = judge(principal, verb, answer);
            if (problem !== null) wrong.push(`replica ${replica}: ${problem}`);
          }
        }
      }
      return wrong;
    },
  };
}
