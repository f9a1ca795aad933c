// The audit policy: kube's documented example policy (kubernetes.io "Auditing" page) read and
// judged as kube-apiserver judges it, first matching rule wins; a bad file refused naming it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadPolicyFile, parsePolicy, PolicyFileError } from '../../../internal/audit/policy-file.ts';
import { evaluatePolicy, type AuditAttributes } from '../../../internal/audit/policy-checker.ts';
import type { UserInfo } from '../../../internal/authn/user-info.ts';

const examplePolicy = `
apiVersion: audit.k8s.io/v1 # This is required.
kind: Policy
# Don't generate audit events for all requests in RequestReceived stage.
omitStages:
  - "RequestReceived"
rules:
  # Log pod changes at RequestResponse level
  - level: RequestResponse
    resources:
    - group: ""
      # Resource "pods" doesn't match requests to any subresource of pods,
      # which is consistent with the RBAC policy.
      resources: ["pods"]
  # Log "pods/log", "pods/status" at Metadata level
  - level: Metadata
    resources:
    - group: ""
      resources: ["pods/log", "pods/status"]

  # Don't log requests to a configmap called "controller-leader"
  - level: None
    resources:
    - group: ""
      resources: ["configmaps"]
      resourceNames: ["controller-leader"]

  # Don't log watch requests by the "system:kube-proxy" on endpoints or services
  - level: None
    users: ["system:kube-proxy"]
    verbs: ["watch"]
    resources:
    - group: "" # core API group
      resources: ["endpoints", "services"]

  # Don't log authenticated requests to certain non-resource URL paths.
  - level: None
    userGroups: ["system:authenticated"]
    nonResourceURLs:
    - "/api*" # Wildcard matching.
    - "/version"

  # Log the request body of configmap changes in kube-system.
  - level: Request
    resources:
    - group: "" # core API group
      resources: ["configmaps"]
    # This rule only applies to resources in the "kube-system" namespace.
    # The empty string "" can be used to select non-namespaced resources.
    namespaces: ["kube-system"]

  # Log configmap and secret changes in all other namespaces at the Metadata level.
  - level: Metadata
    resources:
    - group: "" # core API group
      resources: ["secrets", "configmaps"]

  # Log all other resources in core and extensions at the Request level.
  - level: Request
    resources:
    - group: "" # core API group
    - group: "extensions" # Version of group should NOT be included.

  # A catch-all rule to log all other requests at the Metadata level.
  - level: Metadata
    # Long-running requests like watches that fall under this rule will not
    # generate an audit event in RequestReceived.
    omitStages:
      - "RequestReceived"
`;

const alice: UserInfo = { username: 'alice', uid: '', groups: ['system:authenticated'], extra: {} };
const kubeProxy: UserInfo = { username: 'system:kube-proxy', uid: '', groups: ['system:authenticated'], extra: {} };

function resource(user: UserInfo | undefined, verb: string, parts: { group?: string; resource: string; subresource?: string; namespace?: string; name?: string }): AuditAttributes {
  return { user, verb, resourceRequest: true, namespace: parts.namespace ?? '', apiGroup: parts.group ?? '', apiVersion: 'v1', resource: parts.resource, subresource: parts.subresource ?? '', name: parts.name ?? '', path: '' };
}

function nonResource(user: UserInfo | undefined, path: string): AuditAttributes {
  return { user, verb: 'get', resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path };
}

test('the documented example policy: the first rule that matches decides', () => {
  const policy = parsePolicy(examplePolicy);
  const level = (a: AuditAttributes): string => evaluatePolicy(policy, a).level;
  assert.equal(level(resource(alice, 'create', { resource: 'pods', namespace: 'default' })), 'RequestResponse');
  assert.equal(level(resource(alice, 'get', { resource: 'pods', subresource: 'log', namespace: 'default', name: 'p' })), 'Metadata');
  assert.equal(level(resource(alice, 'update', { resource: 'pods', subresource: 'status', namespace: 'default', name: 'p' })), 'Metadata');
  // pods/exec matches neither "pods" nor the pods/log rule: the core-group rule.
  assert.equal(level(resource(alice, 'create', { resource: 'pods', subresource: 'exec', namespace: 'default', name: 'p' })), 'Request');
  assert.equal(level(resource(alice, 'update', { resource: 'configmaps', namespace: 'default', name: 'controller-leader' })), 'None');
  assert.equal(level(resource(alice, 'update', { resource: 'configmaps', namespace: 'kube-system', name: 'other' })), 'Request');
  assert.equal(level(resource(alice, 'update', { resource: 'configmaps', namespace: 'default', name: 'other' })), 'Metadata');
  assert.equal(level(resource(alice, 'get', { resource: 'secrets', namespace: 'default', name: 's' })), 'Metadata');
  assert.equal(level(resource(kubeProxy, 'watch', { resource: 'endpoints' })), 'None');
  assert.equal(level(resource(kubeProxy, 'list', { resource: 'endpoints' })), 'Request');
  assert.equal(level(resource(alice, 'watch', { resource: 'endpoints' })), 'Request');
  assert.equal(level(nonResource(alice, '/apis/apps')), 'None');
  assert.equal(level(nonResource(alice, '/version')), 'None');
  // No user (a failed authentication) is in no group.
  assert.equal(level(nonResource(undefined, '/version')), 'Metadata');
  assert.equal(level(nonResource(alice, '/healthz')), 'Metadata');
  assert.equal(level(resource(alice, 'create', { group: 'apps', resource: 'deployments', namespace: 'default' })), 'Metadata');
  // The policy's omitStages are every rule's.
  assert.deepEqual(evaluatePolicy(policy, resource(alice, 'create', { resource: 'pods', namespace: 'default' })).omitStages, ['RequestReceived']);
});

test('resources: "*", "*/status", "pods/*", the empty namespace for cluster-scoped requests, non-resource prefixes', () => {
  const policy = parsePolicy(JSON.stringify({
    apiVersion: 'audit.k8s.io/v1', kind: 'Policy',
    rules: [
      { level: 'RequestResponse', resources: [{ group: '', resources: ['*/status'] }] },
      { level: 'Request', resources: [{ group: '', resources: ['pods/*'] }] },
      { level: 'Metadata', namespaces: [''] },
      { level: 'Request', resources: [{ group: 'apps', resources: ['*'] }] },
      { level: 'Metadata', nonResourceURLs: ['/healthz*'] },
    ],
  }));
  const level = (a: AuditAttributes): string => evaluatePolicy(policy, a).level;
  assert.equal(level(resource(alice, 'update', { resource: 'nodes', subresource: 'status', name: 'n' })), 'RequestResponse');
  assert.equal(level(resource(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' })), 'Request');
  assert.equal(level(resource(alice, 'get', { resource: 'pods', subresource: 'log', namespace: 'a', name: 'p' })), 'Request');
  assert.equal(level(resource(alice, 'list', { resource: 'namespaces' })), 'Metadata');
  assert.equal(level(resource(alice, 'list', { resource: 'configmaps', namespace: 'a' })), 'None');
  assert.equal(level(resource(alice, 'create', { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'a' })), 'Request');
  assert.equal(level(nonResource(alice, '/healthz/ping')), 'Metadata');
  assert.equal(level(nonResource(alice, '/livez')), 'None');
});

test('omitManagedFields: the rule says, else the policy', () => {
  const policy = parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitManagedFields: true\nrules:\n- level: Request\n  verbs: [create]\n  omitManagedFields: false\n- level: Request\n');
  assert.equal(evaluatePolicy(policy, resource(alice, 'create', { resource: 'pods' })).omitManagedFields, false);
  assert.equal(evaluatePolicy(policy, resource(alice, 'update', { resource: 'pods' })).omitManagedFields, true);
});

test('a malformed policy is refused with kube\'s words, naming the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-audit-policy-'));
  try {
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n');
    assert.throws(() => loadPolicyFile(file), (err: Error) => err instanceof PolicyFileError && err.message === `rules[0].level: Unsupported value: "Everything": supported values: "Metadata", "None", "Request", "RequestResponse": from file ${file}`);
    writeFileSync(file, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n');
    assert.throws(() => loadPolicyFile(file), /loaded illegal policy with 0 rules: from file/);
    writeFileSync(file, 'apiVersion: audit.k8s.io/v2\nkind: Policy\nrules:\n- level: None\n');
    assert.throws(() => loadPolicyFile(file), /unknown group version/);
    writeFileSync(file, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  nonResourceURLs: ["/a*b", "healthz"]\n  namespaces: [a]\n');
    assert.throws(() => loadPolicyFile(file), (err: Error) => /must be the final character/.test(err.message) && /must begin with a '\/' character/.test(err.message) && /both regular resources and non-resource URLs/.test(err.message));
    writeFileSync(file, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  omitStages: [Sometimes]\n');
    assert.throws(() => loadPolicyFile(file), /rules\[0\]\.omitStages\[0\]: Unsupported value: "Sometimes"/);
    writeFileSync(file, 'kind: Policy\n  rules: [');
    assert.throws(() => loadPolicyFile(file), /failed decoding/);
    assert.throws(() => loadPolicyFile(join(dir, 'missing.yaml')), /failed to read file path/);
    const warnings: string[] = [];
    writeFileSync(file, 'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: Metadata\n');
    assert.equal(loadPolicyFile(file, (w) => warnings.push(w)).rules.length, 1);
    assert.match(warnings[0] ?? '', /deprecated/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
