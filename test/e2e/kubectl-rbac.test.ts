// RBAC end to end with kubectl on a real 3-process cluster, as an operator works: the admin (the
// kubeconfig's client certificate) makes a namespace, a ServiceAccount and its tokens; the token is
// refused, then granted through a Role and RoleBinding made with kubectl's generators; auth can-i,
// can-i --list and whoami; impersonation (anyone, and one user only through resourceNames);
// escalation prevention; auth reconcile, idempotent; and the Debian Python client with a token.
// Each step goes through another replica than the one before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startClusterFixture } from '../support/cluster-fixture.ts';
import { kubectlOn, succeeded, type KubectlResult } from '../support/kubectl-runner.ts';
import { jwtClaims, kubectlWithToken, untilSucceeds, writeCredentialFreeKubeconfig } from '../support/auth-kubectl.ts';
import { pythonClientMissing, pythonPath } from '../support/python-client.ts';

const ns = 'rbac-e2e';
const robot = `system:serviceaccount:${ns}:robot`;
const robotGroups = `["system:serviceaccounts" "system:serviceaccounts:${ns}" "system:authenticated"]`;

// Lists the namespace's secrets with a bearer token; prints the names, or the ApiException's status.
const pythonListSecrets = `
import sys, kubernetes
configuration = kubernetes.client.Configuration()
configuration.host = sys.argv[1]
configuration.ssl_ca_cert = sys.argv[2]
configuration.api_key = {'authorization': 'Bearer ' + sys.argv[3]}
api = kubernetes.client.CoreV1Api(kubernetes.client.ApiClient(configuration))
try:
    print('names:' + ','.join(sorted(s.metadata.name for s in api.list_namespaced_secret(sys.argv[4]).items)))
except kubernetes.client.exceptions.ApiException as error:
    print('status:%d' % error.status)
    print(error.body)
`;

function python(args: readonly string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(pythonPath, ['-c', pythonListSecrets, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** The stderr line kubectl prints for RBAC's refusal of `verb` on core `resource` in `ns`. */
function forbiddenLine(user: string, verb: string, resource: string): string {
  return `Error from server (Forbidden): ${resource} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "" in the namespace "${ns}"\n`;
}

test('kubectl RBAC end to end: tokens, roles and bindings, can-i, whoami, impersonation, escalation, reconcile, the Python client', { timeout: 600_000 }, async (t) => {
  const fixture = await startClusterFixture();
  t.after(() => fixture.close());
  const kubectl = kubectlOn(fixture);
  const ok = async (replica: number, args: readonly string[], input?: string): Promise<string> => succeeded(await kubectl(replica, args, input), `${args.join(' ')} (replica ${replica % 3})`);
  const tokenKubeconfig = join(fixture.dataDir, 'token.kubeconfig');
  writeCredentialFreeKubeconfig(fixture, tokenKubeconfig);
  const caFile = join(fixture.dataDir, 'pki', 'ca.crt');
  let robotToken = '';

  await t.test('the admin creates the namespace and the ServiceAccount robot', async () => {
    assert.equal(await ok(0, ['create', 'namespace', ns]), `namespace/${ns} created\n`);
    assert.equal(await ok(1, ['create', 'serviceaccount', 'robot', '-n', ns]), 'serviceaccount/robot created\n');
    assert.equal(await ok(2, ['create', 'secret', 'generic', 'launch-codes', '--from-literal=code=0000', '-n', ns]), 'secret/launch-codes created\n');
    // Listed by those allowed to (kube-root-ca.crt comes from a controller, in its own time).
    assert.equal(await ok(0, ['create', 'configmap', 'marker', '--from-literal=a=b', '-n', ns]), 'configmap/marker created\n');
  });

  await t.test('kubectl create token: one hour for the API by default; --duration and --audience are the token\'s; too short a duration is kube\'s 422', async () => {
    robotToken = (await ok(2, ['create', 'token', 'robot', '-n', ns])).trim();
    const claims = jwtClaims(robotToken);
    assert.equal(claims['sub'], robot);
    assert.deepEqual(claims['aud'], [fixture.cluster.serviceAccount.issuer]);
    assert.equal((claims['exp'] as number) - (claims['iat'] as number), 3600);
    const uid = (await ok(0, ['get', 'serviceaccount', 'robot', '-n', ns, '-o', 'jsonpath={.metadata.uid}'])).trim();
    assert.deepEqual(claims['kubernetes.io'], { namespace: ns, serviceaccount: { name: 'robot', uid } });

    const long = jwtClaims((await ok(0, ['create', 'token', 'robot', '-n', ns, '--duration=2h'])).trim());
    assert.equal((long['exp'] as number) - (long['iat'] as number), 7200);
    const vaultToken = (await ok(1, ['create', 'token', 'robot', '-n', ns, '--audience=vault', '--audience=other'])).trim();
    assert.deepEqual(jwtClaims(vaultToken)['aud'], ['vault', 'other']);
    // A token for other audiences is no credential for the API.
    const refused = await kubectlWithToken(fixture, tokenKubeconfig, vaultToken)(2, ['get', 'secrets', '-n', ns]);
    assert.equal(refused.code, 1);
    // kubectl's own words for a 401 on discovery (client-go's discovery reads the body raw), as against kube-apiserver.
    assert.match(refused.stderr, /\nerror: You must be logged in to the server \(the server has asked for the client to provide credentials\)\n$/);

    // kube's TokenREST.Create words its validation error with an empty name (errors.NewInvalid(gvk.GroupKind(), "", errs)).
    const short = await kubectl(2, ['create', 'token', 'robot', '-n', ns, '--duration=5m']);
    assert.equal(short.code, 1);
    assert.equal(short.stderr, 'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes\n');
    const ghost = await kubectl(0, ['create', 'token', 'ghost', '-n', ns]);
    assert.equal(ghost.code, 1);
    assert.equal(ghost.stderr, 'error: failed to create token: serviceaccounts "ghost" not found\n');
  });

  await t.test('before any grant, the token lists no secrets: Forbidden naming the ServiceAccount', async () => {
    const denied = await kubectlWithToken(fixture, tokenKubeconfig, robotToken)(0, ['get', 'secrets', '-n', ns]);
    assert.equal(denied.code, 1);
    assert.equal(denied.stderr, forbiddenLine(robot, 'list', 'secrets'));
  });

  await t.test('create role secret-reader and a rolebinding to robot: the list then succeeds through another replica', async () => {
    assert.equal(await ok(0, ['create', 'role', 'secret-reader', '--verb=get,list', '--resource=secrets', '-n', ns]), 'role.rbac.authorization.k8s.io/secret-reader created\n');
    assert.equal(await ok(0, ['create', 'rolebinding', 'robot-reads-secrets', '--role=secret-reader', `--serviceaccount=${ns}:robot`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/robot-reads-secrets created\n');
    const listed = await untilSucceeds(() => kubectlWithToken(fixture, tokenKubeconfig, robotToken)(1, ['get', 'secrets', '-n', ns, '-o', 'name']));
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout, 'secret/launch-codes\n');
    const one = await kubectlWithToken(fixture, tokenKubeconfig, robotToken)(2, ['get', 'secret', 'launch-codes', '-n', ns, '-o', 'jsonpath={.data.code}']);
    assert.equal(one.stdout, Buffer.from('0000').toString('base64'), one.stderr);
    const deleting = await kubectlWithToken(fixture, tokenKubeconfig, robotToken)(2, ['delete', 'secret', 'launch-codes', '-n', ns]);
    assert.equal(deleting.code, 1);
    assert.equal(deleting.stderr, `Error from server (Forbidden): secrets "launch-codes" is forbidden: User "${robot}" cannot delete resource "secrets" in API group "" in the namespace "${ns}"\n`);
  });

  await t.test('kubectl auth can-i as the ServiceAccount: list secrets yes, delete no; with the token itself too', async () => {
    const yes = await kubectl(1, ['auth', 'can-i', 'list', 'secrets', '-n', ns, `--as=${robot}`]);
    assert.deepEqual([yes.code, yes.stdout], [0, 'yes\n'], yes.stderr);
    const no = await kubectl(2, ['auth', 'can-i', 'delete', 'secrets', '-n', ns, `--as=${robot}`]);
    assert.deepEqual([no.code, no.stdout], [1, 'no\n'], no.stderr);
    const self = await kubectlWithToken(fixture, tokenKubeconfig, robotToken)(0, ['auth', 'can-i', 'get', 'secrets', '-n', ns]);
    assert.deepEqual([self.code, self.stdout], [0, 'yes\n'], self.stderr);
    const elsewhere = await kubectlWithToken(fixture, tokenKubeconfig, robotToken)(0, ['auth', 'can-i', 'list', 'secrets', '-n', 'default']);
    assert.deepEqual([elsewhere.code, elsewhere.stdout], [1, 'no\n'], elsewhere.stderr);
  });

  await t.test('kubectl auth can-i --list as the ServiceAccount shows the Role\'s rule', async () => {
    const listed = await ok(0, ['auth', 'can-i', '--list', '-n', ns, `--as=${robot}`]);
    assert.match(listed, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\s*$/m);
    assert.match(listed, /^secrets\s+\[\]\s+\[\]\s+\[get list\]\s*$/m);
    // The discovery rules every authenticated user has, from the bootstrap roles.
    assert.match(listed, /^\s+\[\/version\]\s+\[\]\s+\[get\]\s*$/m);
    assert.match(listed, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]\s*$/m);
  });

  await t.test('kubectl auth whoami: the admin, and the ServiceAccount through its token', async () => {
    const admin = await ok(1, ['auth', 'whoami']);
    assert.match(admin, /^ATTRIBUTE\s+VALUE\s*$/m);
    assert.match(admin, /^Username\s+orch-admin\s*$/m);
    assert.match(admin, /^Groups\s+\[system:masters system:authenticated\]\s*$/m);
    const who = await kubectlWithToken(fixture, tokenKubeconfig, robotToken)(2, ['auth', 'whoami', '-o', 'json']);
    assert.equal(who.code, 0, who.stderr);
    const review = JSON.parse(who.stdout) as { kind: string; status: { userInfo: { username: string; uid: string; groups: string[] } } };
    assert.equal(review.kind, 'SelfSubjectReview');
    const uid = (await ok(0, ['get', 'serviceaccount', 'robot', '-n', ns, '-o', 'jsonpath={.metadata.uid}'])).trim();
    assert.deepEqual({ username: review.status.userInfo.username, uid: review.status.userInfo.uid, groups: review.status.userInfo.groups }, { username: robot, uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] });
  });

  await t.test('impersonation: --as=nobody is Forbidden naming nobody; with --as-group=system:masters it is allowed', async () => {
    const nobody = await kubectl(0, ['get', 'configmaps', '-n', ns, '--as=nobody']);
    assert.equal(nobody.code, 1);
    assert.equal(nobody.stderr, forbiddenLine('nobody', 'list', 'configmaps'));
    const master = await kubectl(1, ['get', 'configmaps', '-n', ns, '--as=nobody', '--as-group=system:masters', '-o', 'name']);
    assert.equal(master.code, 0, master.stderr);
    assert.match(master.stdout, /^configmap\/marker$/m);
    const whoami = await ok(2, ['auth', 'whoami', '--as=nobody', '--as-group=system:masters', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    assert.equal(whoami, 'nobody ["system:masters","system:authenticated"]');
  });

  await t.test('a user allowed to impersonate one user only (a ClusterRole with resourceNames) acts as that user, never as another, never with a group', async () => {
    assert.equal(await ok(0, ['create', 'serviceaccount', 'impersonator', '-n', ns]), 'serviceaccount/impersonator created\n');
    assert.equal(await ok(1, ['create', 'clusterrole', 'impersonate-target', '--verb=impersonate', '--resource=users', '--resource-name=target-user']), 'clusterrole.rbac.authorization.k8s.io/impersonate-target created\n');
    assert.equal(await ok(2, ['create', 'clusterrolebinding', 'impersonator-target', '--clusterrole=impersonate-target', `--serviceaccount=${ns}:impersonator`]), 'clusterrolebinding.rbac.authorization.k8s.io/impersonator-target created\n');
    assert.equal(await ok(0, ['create', 'role', 'configmap-lister', '--verb=list', '--resource=configmaps', '-n', ns]), 'role.rbac.authorization.k8s.io/configmap-lister created\n');
    assert.equal(await ok(1, ['create', 'rolebinding', 'target-lists', '--role=configmap-lister', '--user=target-user', '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/target-lists created\n');
    const token = (await ok(2, ['create', 'token', 'impersonator', '-n', ns])).trim();
    const impersonator = kubectlWithToken(fixture, tokenKubeconfig, token);
    const asTarget = await untilSucceeds(() => impersonator(0, ['get', 'configmaps', '-n', ns, '--as=target-user', '-o', 'name']));
    assert.equal(asTarget.code, 0, asTarget.stderr);
    assert.match(asTarget.stdout, /^configmap\/marker$/m);
    const me = `system:serviceaccount:${ns}:impersonator`;
    const other = await impersonator(1, ['get', 'configmaps', '-n', ns, '--as=other-user']);
    assert.equal(other.code, 1);
    assert.equal(other.stderr, `Error from server (Forbidden): users "other-user" is forbidden: User "${me}" cannot impersonate resource "users" in API group "" at the cluster scope\n`);
    const withGroup = await impersonator(2, ['get', 'configmaps', '-n', ns, '--as=target-user', '--as-group=system:masters']);
    assert.equal(withGroup.code, 1);
    assert.equal(withGroup.stderr, `Error from server (Forbidden): groups "system:masters" is forbidden: User "${me}" cannot impersonate resource "groups" in API group "" at the cluster scope\n`);
    // Its own rights are none: without --as it is refused as itself.
    const itself = await impersonator(0, ['get', 'configmaps', '-n', ns]);
    assert.equal(itself.stderr, forbiddenLine(me, 'list', 'configmaps'));
    const asAccount = await impersonator(1, ['get', 'configmaps', '-n', ns, `--as=${robot}`]);
    assert.equal(asAccount.stderr, `Error from server (Forbidden): serviceaccounts "robot" is forbidden: User "${me}" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "${ns}"\n`);
    const withUid = await impersonator(2, ['get', 'configmaps', '-n', ns, '--as=target-user', '--as-uid=1234']);
    assert.equal(withUid.stderr, `Error from server (Forbidden): uids.authentication.k8s.io "1234" is forbidden: User "${me}" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope\n`);
    const canTarget = await impersonator(0, ['auth', 'can-i', 'impersonate', 'users/target-user']);
    assert.deepEqual([canTarget.code, canTarget.stdout], [0, 'yes\n'], canTarget.stderr);
    const canOther = await impersonator(1, ['auth', 'can-i', 'impersonate', 'users/other-user']);
    assert.deepEqual([canOther.code, canOther.stdout], [1, 'no\n'], canOther.stderr);
    const rules = await impersonator(2, ['auth', 'can-i', '--list', '-n', ns]);
    assert.equal(rules.code, 0, rules.stderr);
    assert.match(rules.stdout, /^users\s+\[\]\s+\[target-user\]\s+\[impersonate\]\s*$/m);
  });

  await t.test('escalation: robot may create roles but cannot grant delete on secrets it lacks; a role within its rights is fine', async () => {
    assert.equal(await ok(0, ['create', 'role', 'role-maker', '--verb=create', '--resource=roles.rbac.authorization.k8s.io', '-n', ns]), 'role.rbac.authorization.k8s.io/role-maker created\n');
    assert.equal(await ok(1, ['create', 'rolebinding', 'robot-makes-roles', '--role=role-maker', `--serviceaccount=${ns}:robot`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/robot-makes-roles created\n');
    const asRobot = kubectlWithToken(fixture, tokenKubeconfig, robotToken);
    const within = await untilSucceeds(() => asRobot(2, ['create', 'role', 'r-read', '--verb=get', '--resource=secrets', '-n', ns]));
    assert.equal(within.code, 0, within.stderr);
    assert.equal(within.stdout, 'role.rbac.authorization.k8s.io/r-read created\n');
    const escalating = await asRobot(0, ['create', 'role', 'r2', '--verb=delete', '--resource=secrets', '-n', ns]);
    assert.equal(escalating.code, 1);
    assert.equal(escalating.stderr, `Error from server (Forbidden): roles.rbac.authorization.k8s.io "r2" is forbidden: user "${robot}" (groups=${robotGroups}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["delete"]}\n`);
    const absent = await kubectl(1, ['get', 'role', 'r2', '-n', ns]);
    assert.equal(absent.stderr, 'Error from server (NotFound): roles.rbac.authorization.k8s.io "r2" not found\n');
  });

  await t.test('escalation through bindings: robot may create rolebindings but not bind a role it does not hold, until given bind on that role; escalate lets it create the role', async () => {
    assert.equal(await ok(0, ['create', 'role', 'secret-deleter', '--verb=delete', '--resource=secrets', '-n', ns]), 'role.rbac.authorization.k8s.io/secret-deleter created\n');
    assert.equal(await ok(1, ['create', 'role', 'binding-maker', '--verb=create', '--resource=rolebindings.rbac.authorization.k8s.io', '-n', ns]), 'role.rbac.authorization.k8s.io/binding-maker created\n');
    assert.equal(await ok(2, ['create', 'rolebinding', 'robot-makes-bindings', '--role=binding-maker', `--serviceaccount=${ns}:robot`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/robot-makes-bindings created\n');
    const asRobot = kubectlWithToken(fixture, tokenKubeconfig, robotToken);
    // A binding of a role whose rules robot holds (secret-reader) is fine.
    const held = await untilSucceeds(() => asRobot(0, ['create', 'rolebinding', 'carol-reads', '--role=secret-reader', '--user=carol', '-n', ns]));
    assert.deepEqual([held.code, held.stdout], [0, 'rolebinding.rbac.authorization.k8s.io/carol-reads created\n'], held.stderr);
    const escalating = await asRobot(1, ['create', 'rolebinding', 'carol-deletes', '--role=secret-deleter', '--user=carol', '-n', ns]);
    assert.equal(escalating.code, 1);
    assert.equal(escalating.stderr, `error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "carol-deletes" is forbidden: user "${robot}" (groups=${robotGroups}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["delete"]}\n`);

    assert.equal(await ok(2, ['create', 'role', 'deleter-binder', '--verb=bind', '--resource=roles.rbac.authorization.k8s.io', '--resource-name=secret-deleter', '-n', ns]), 'role.rbac.authorization.k8s.io/deleter-binder created\n');
    assert.equal(await ok(0, ['create', 'rolebinding', 'robot-binds-deleter', '--role=deleter-binder', `--serviceaccount=${ns}:robot`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/robot-binds-deleter created\n');
    const bound = await untilSucceeds(() => asRobot(1, ['create', 'rolebinding', 'carol-deletes', '--role=secret-deleter', '--user=carol', '-n', ns]));
    assert.deepEqual([bound.code, bound.stdout], [0, 'rolebinding.rbac.authorization.k8s.io/carol-deletes created\n'], bound.stderr);
    // bind on secret-deleter only: another role robot does not hold stays refused.
    assert.equal(await ok(1, ['create', 'role', 'pod-deleter', '--verb=delete', '--resource=pods', '-n', ns]), 'role.rbac.authorization.k8s.io/pod-deleter created\n');
    const other = await asRobot(2, ['create', 'rolebinding', 'carol-deletes-pods', '--role=pod-deleter', '--user=carol', '-n', ns]);
    assert.equal(other.stderr, `error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "carol-deletes-pods" is forbidden: user "${robot}" (groups=${robotGroups}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n`);

    // escalate on roles: robot may now write a role with rights it lacks.
    assert.equal(await ok(2, ['create', 'role', 'role-escalator', '--verb=escalate', '--resource=roles.rbac.authorization.k8s.io', '-n', ns]), 'role.rbac.authorization.k8s.io/role-escalator created\n');
    assert.equal(await ok(0, ['create', 'rolebinding', 'robot-escalates', '--role=role-escalator', `--serviceaccount=${ns}:robot`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/robot-escalates created\n');
    const escalated = await untilSucceeds(() => asRobot(1, ['create', 'role', 'r2', '--verb=delete', '--resource=secrets', '-n', ns]));
    assert.deepEqual([escalated.code, escalated.stdout], [0, 'role.rbac.authorization.k8s.io/r2 created\n'], escalated.stderr);
  });

  await t.test('a token bound to a Secret (kubectl create token --bound-object-kind) dies with the Secret', async () => {
    assert.equal(await ok(0, ['create', 'secret', 'generic', 'token-anchor', '--from-literal=a=b', '-n', ns]), 'secret/token-anchor created\n');
    const uid = (await ok(1, ['get', 'secret', 'token-anchor', '-n', ns, '-o', 'jsonpath={.metadata.uid}'])).trim();
    const used = (await ok(2, ['create', 'token', 'robot', '-n', ns, '--bound-object-kind=Secret', '--bound-object-name=token-anchor'])).trim();
    const unused = (await ok(0, ['create', 'token', 'robot', '-n', ns, '--bound-object-kind=Secret', '--bound-object-name=token-anchor', `--bound-object-uid=${uid}`])).trim();
    assert.deepEqual((jwtClaims(used)['kubernetes.io'] as { secret: unknown }).secret, { name: 'token-anchor', uid });
    const before = await kubectlWithToken(fixture, tokenKubeconfig, used)(1, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    assert.deepEqual([before.code, before.stdout], [0, robot], before.stderr);
    assert.equal(await ok(2, ['delete', 'secret', 'token-anchor', '-n', ns]), 'secret "token-anchor" deleted\n');
    await untilSucceeds(async () => ({ code: (await kubectl(0, ['get', 'secret', 'token-anchor', '-n', ns])).code === 1 && (await kubectl(1, ['get', 'secret', 'token-anchor', '-n', ns])).code === 1 ? 0 : 1 }));
    const refused = await kubectlWithToken(fixture, tokenKubeconfig, unused)(1, ['auth', 'whoami']);
    assert.equal(refused.code, 1);
    // whoami makes no discovery call: client-go decodes the 401's Status, whose message is Unauthorized.
    assert.equal(refused.stderr, 'error: You must be logged in to the server (Unauthorized)\n');
    // kube caches a token's success for up to 10 s: the one used before goes within that.
    const usedRefused = await untilSucceeds(async () => {
      const result = await kubectlWithToken(fixture, tokenKubeconfig, used)(2, ['auth', 'whoami']);
      return { ...result, code: result.code === 1 ? 0 : 1 };
    }, 20_000);
    assert.equal(usedRefused.stderr, 'error: You must be logged in to the server (Unauthorized)\n');
  });

  await t.test('the bootstrap view and edit ClusterRoles bound in the namespace: view reads but never secrets, edit writes; the admin can do anything', async () => {
    assert.equal(await ok(0, ['create', 'serviceaccount', 'viewer', '-n', ns]), 'serviceaccount/viewer created\n');
    assert.equal(await ok(1, ['create', 'serviceaccount', 'editor', '-n', ns]), 'serviceaccount/editor created\n');
    assert.equal(await ok(2, ['create', 'rolebinding', 'viewer-views', '--clusterrole=view', `--serviceaccount=${ns}:viewer`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/viewer-views created\n');
    assert.equal(await ok(0, ['create', 'rolebinding', 'editor-edits', '--clusterrole=edit', `--serviceaccount=${ns}:editor`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/editor-edits created\n');
    const canI = async (replica: number, account: string, args: readonly string[]): Promise<string> => {
      const result = await kubectl(replica, ['auth', 'can-i', ...args, '-n', ns, `--as=system:serviceaccount:${ns}:${account}`]);
      return result.stdout.trim() || result.stderr;
    };
    const answers = {
      viewListConfigmaps: await canI(1, 'viewer', ['list', 'configmaps']),
      viewWatchDeployments: await canI(2, 'viewer', ['watch', 'deployments.apps']),
      viewGetSecrets: await canI(0, 'viewer', ['get', 'secrets']),
      viewCreateConfigmaps: await canI(1, 'viewer', ['create', 'configmaps']),
      viewElsewhere: (await kubectl(2, ['auth', 'can-i', 'list', 'configmaps', '-n', 'default', `--as=system:serviceaccount:${ns}:viewer`])).stdout.trim(),
      editCreateConfigmaps: await canI(0, 'editor', ['create', 'configmaps']),
      editDeleteSecrets: await canI(1, 'editor', ['delete', 'secrets']),
      editCreateRoles: await canI(2, 'editor', ['create', 'roles.rbac.authorization.k8s.io']),
      adminAnything: (await kubectl(0, ['auth', 'can-i', '*', '*', '--all-namespaces'])).stdout.trim(),
    };
    assert.deepEqual(answers, {
      viewListConfigmaps: 'yes', viewWatchDeployments: 'yes', viewGetSecrets: 'no', viewCreateConfigmaps: 'no', viewElsewhere: 'no',
      editCreateConfigmaps: 'yes', editDeleteSecrets: 'yes', editCreateRoles: 'no', adminAnything: 'yes',
    });
  });

  await t.test('kubectl auth reconcile of a Role and a RoleBinding creates them, then changes nothing on a second run', async (t) => {
    const file = join(fixture.dataDir, 'reconcile.yaml');
    const manifest = (extraRules: readonly string[], extraSubjects: readonly string[]): string => [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      `metadata: {name: reconciled-reader, namespace: ${ns}}`,
      'rules:',
      '- {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}',
      ...extraRules,
      '---',
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: RoleBinding',
      `metadata: {name: reconciled-reader, namespace: ${ns}}`,
      'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reconciled-reader}',
      'subjects:',
      `- {kind: ServiceAccount, name: robot, namespace: ${ns}}`,
      ...extraSubjects,
      '',
    ].join('\n');
    writeFileSync(file, manifest([], []));
    const first = await kubectl(0, ['auth', 'reconcile', '-f', file]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^role\.rbac\.authorization\.k8s\.io\/reconciled-reader reconciled$/m);
    assert.match(first.stdout, /^rolebinding\.rbac\.authorization\.k8s\.io\/reconciled-reader reconciled$/m);
    // kubectl writes what it changed to stderr.
    assert.equal(first.stderr, [
      '\treconciliation required create',
      '\tmissing rules added:',
      '\t\t{Verbs:[get list watch] APIGroups:[] Resources:[configmaps] ResourceNames:[] NonResourceURLs:[]}',
      '\treconciliation required create',
      '\tmissing subjects added:',
      `\t\t{Kind:ServiceAccount APIGroup: Name:robot Namespace:${ns}}`,
      '',
    ].join('\n'));
    const rules = await ok(1, ['get', 'role', 'reconciled-reader', '-n', ns, '-o', 'jsonpath={.rules}']);
    assert.deepEqual(JSON.parse(rules), [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
    const subjects = await ok(2, ['get', 'rolebinding', 'reconciled-reader', '-n', ns, '-o', 'jsonpath={.subjects}']);
    const stored = JSON.parse(subjects) as { kind: string; name: string; namespace: string; apiGroup?: string }[];
    assert.deepEqual(stored.map(({ kind, name, namespace }) => ({ kind, name, namespace })), [{ kind: 'ServiceAccount', name: 'robot', namespace: ns }]);
    await t.test('a ServiceAccount subject has no apiGroup field (Go omits the empty string: rbacv1.Subject.APIGroup is omitempty)', { todo: 'orch stores and returns "apiGroup": "" on a ServiceAccount subject' }, () => {
      assert.deepEqual(stored, [{ kind: 'ServiceAccount', name: 'robot', namespace: ns }]);
    });
    const resourceVersions = async () => ok(0, ['get', 'role,rolebinding', 'reconciled-reader', '-n', ns, '-o', 'jsonpath={.items[*].metadata.resourceVersion}']);
    const before = await resourceVersions();

    const second = await kubectl(2, ['auth', 'reconcile', '-f', file]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, 'role.rbac.authorization.k8s.io/reconciled-reader reconciled\nrolebinding.rbac.authorization.k8s.io/reconciled-reader reconciled\n');
    assert.equal(second.stderr, '', 'nothing to reconcile');
    assert.equal(await resourceVersions(), before, 'a reconcile with nothing to change writes nothing');

    // A rule and a subject more: reconcile adds them and says so (it never removes without --remove-extra-*).
    writeFileSync(file, manifest(['- {apiGroups: [""], resources: [secrets], verbs: [get]}'], ['- {kind: User, name: carol, apiGroup: rbac.authorization.k8s.io}']));
    const third = await kubectl(1, ['auth', 'reconcile', '-f', file]);
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stderr, [
      '\treconciliation required update',
      '\tmissing rules added:',
      '\t\t{Verbs:[get] APIGroups:[] Resources:[secrets] ResourceNames:[] NonResourceURLs:[]}',
      '\treconciliation required update',
      '\tmissing subjects added:',
      '\t\t{Kind:User APIGroup:rbac.authorization.k8s.io Name:carol Namespace:}',
      '',
    ].join('\n'));
    const updated = JSON.parse(await ok(2, ['get', 'role', 'reconciled-reader', '-n', ns, '-o', 'jsonpath={.rules}'])) as unknown;
    assert.deepEqual(updated, [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]);
    const fourth = await kubectl(0, ['auth', 'reconcile', '-f', file]);
    assert.deepEqual([fourth.code, fourth.stderr], [0, ''], 'reconciled again: nothing left to do');
  });

  await t.test('a Role\'s empty resourceNames and nonResourceURLs read back left out (PolicyRule\'s lists are omitempty)', { todo: 'orch stores and returns the empty lists: "resourceNames":[],"nonResourceURLs":[]' }, async () => {
    const manifest = `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: empty-lists, namespace: ${ns}}\nrules:\n- {apiGroups: [""], resources: [pods], verbs: [get], resourceNames: [], nonResourceURLs: []}\n`;
    assert.equal(await ok(0, ['create', '-f', '-'], manifest), 'role.rbac.authorization.k8s.io/empty-lists created\n');
    assert.deepEqual(JSON.parse(await ok(1, ['get', 'role', 'empty-lists', '-n', ns, '-o', 'jsonpath={.rules}'])), [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
  });

  await t.test('the Debian Python client with a service-account token: 403 before the grant, the secrets after it', { skip: pythonClientMissing() ?? false }, async () => {
    assert.equal(await ok(0, ['create', 'serviceaccount', 'py-robot', '-n', ns]), 'serviceaccount/py-robot created\n');
    const token = (await ok(1, ['create', 'token', 'py-robot', '-n', ns])).trim();
    const [first, second] = [fixture.cluster.replicas[0]?.apiUrl ?? '', fixture.cluster.replicas[2]?.apiUrl ?? ''];
    const before = await python([first, caFile, token, ns]);
    assert.equal(before.code, 0, before.stderr);
    const [statusLine, body] = before.stdout.split('\n');
    assert.equal(statusLine, 'status:403');
    assert.equal((JSON.parse(body ?? '') as { message: string }).message, `secrets is forbidden: User "system:serviceaccount:${ns}:py-robot" cannot list resource "secrets" in API group "" in the namespace "${ns}"`);
    assert.equal(await ok(2, ['create', 'rolebinding', 'py-robot-reads-secrets', '--role=secret-reader', `--serviceaccount=${ns}:py-robot`, '-n', ns]), 'rolebinding.rbac.authorization.k8s.io/py-robot-reads-secrets created\n');
    const after = await untilSucceeds(async () => {
      const result = await python([second, caFile, token, ns]);
      return { ...result, code: result.stdout.startsWith('names:') ? 0 : 1 };
    });
    assert.equal(after.stdout, 'names:launch-codes\n', after.stderr);
  });
});
