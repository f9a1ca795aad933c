import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlagError, parseReplicaFlags } from '../../../internal/replica/parse-flags.ts';

const parse = (...args: string[]) => parseReplicaFlags(['--name', 'orch-1', ...args]).authentication;

test('with no authentication flag: kube-apiserver\'s defaults (anonymous on, service-account lookup on) and no admin token', () => {
  const flags = parse();
  assert.equal(flags.adminTokenFile, null);
  assert.deepEqual(flags.warnings, []);
  assert.deepEqual(flags.options, {
    anonymousAuth: true,
    apiAudiences: [],
    serviceAccounts: { keyFiles: [], issuers: [], lookup: true, extendTokenExpiration: true },
  });
});

test('booleans read as Go reads them: bare, =true, =false; anything else is refused naming the flag', () => {
  assert.equal(parse('--anonymous-auth').options.anonymousAuth, true);
  assert.equal(parse('--anonymous-auth=false').options.anonymousAuth, false);
  assert.equal(parse('--service-account-lookup=0').options.serviceAccounts.lookup, false);
  assert.throws(() => parse('--anonymous-auth=maybe'), (e: unknown) => e instanceof FlagError && /^--anonymous-auth: "maybe" is not true or false/.test(e.message));
});

test('AlwaysAllow turns anonymous requests off, with a warning, as kube-apiserver does', () => {
  const flags = parseReplicaFlags(['--name', 'orch-1', '--authorization-mode', 'AlwaysAllow', '--anonymous-auth=true']).authentication;
  assert.equal(flags.options.anonymousAuth, false);
  assert.match(flags.warnings[0] ?? '', /AlwaysAllow/);
});

test('lists are repeatable and comma-separated; the service-account key file defaults to the signing key', () => {
  const flags = parse(
    '--service-account-issuer', 'https://a.example', '--service-account-issuer', 'https://b.example,https://c.example',
    '--service-account-signing-key-file', '/k/sa.key', '--api-audiences', 'x,y', '--service-account-max-token-expiration', '24h',
    '--client-ca-file', '/k/ca.crt', '--token-auth-file', '/k/tokens.csv', '--admin-token-file', '/k/admin',
  );
  assert.deepEqual(flags.options.serviceAccounts, {
    keyFiles: ['/k/sa.key'], issuers: ['https://a.example', 'https://b.example', 'https://c.example'], lookup: true, extendTokenExpiration: true,
    signingKeyFile: '/k/sa.key', maxTokenExpirationSeconds: 86_400,
  });
  assert.deepEqual(flags.options.apiAudiences, ['x', 'y']);
  assert.equal(flags.options.clientCaFile, '/k/ca.crt');
  assert.equal(flags.options.tokenAuthFile, '/k/tokens.csv');
  assert.equal(flags.adminTokenFile, '/k/admin');
  assert.deepEqual(parse('--service-account-key-file', '/a.pub', '--service-account-key-file', '/b.pub', '--service-account-signing-key-file', '/a.key').options.serviceAccounts.keyFiles, ['/a.pub', '/b.pub']);
});

test('OIDC flags: issuer and client id together, https only; the rest passed through', () => {
  const flags = parse(
    '--oidc-issuer-url', 'https://idp.example', '--oidc-client-id', 'orch', '--oidc-username-claim', 'email', '--oidc-username-prefix', '-',
    '--oidc-groups-claim', 'groups', '--oidc-groups-prefix', 'idp:', '--oidc-required-claim', 'hd=example.com,tier=gold', '--oidc-ca-file', '/k/idp.crt',
    '--oidc-signing-algs', 'RS256,ES256',
  );
  assert.deepEqual(flags.options.oidc, {
    issuerUrl: 'https://idp.example', clientId: 'orch', usernameClaim: 'email', usernamePrefix: '-', groupsClaim: 'groups', groupsPrefix: 'idp:',
    requiredClaims: ['hd=example.com', 'tier=gold'], caFile: '/k/idp.crt', signingAlgorithms: ['RS256', 'ES256'],
  });
  assert.throws(() => parse('--oidc-issuer-url', 'https://idp.example'), /--oidc-issuer-url and --oidc-client-id must be specified together/);
  assert.throws(() => parse('--oidc-issuer-url', 'http://idp.example', '--oidc-client-id', 'x'), /must use the https scheme/);
});

test('token webhook: config file, version v1beta1 by default, cache TTL 2 minutes by default', () => {
  assert.deepEqual(parse('--authentication-token-webhook-config-file', '/k/webhook.yaml').options.tokenWebhook, { configFile: '/k/webhook.yaml', version: 'v1beta1', cacheTtlSeconds: 120 });
  assert.deepEqual(
    parse('--authentication-token-webhook-config-file', '/k/w', '--authentication-token-webhook-version', 'v1', '--authentication-token-webhook-cache-ttl', '30s').options.tokenWebhook,
    { configFile: '/k/w', version: 'v1', cacheTtlSeconds: 30 },
  );
  assert.throws(() => parse('--authentication-token-webhook-version', 'v2'), /--authentication-token-webhook-version: "v2" is not v1 or v1beta1/);
});

test('request-header flags need the proxy CA; names and headers are lists', () => {
  const flags = parse(
    '--requestheader-client-ca-file', '/k/proxy.crt', '--requestheader-username-headers', 'X-Remote-User', '--requestheader-group-headers', 'X-Remote-Group',
    '--requestheader-extra-headers-prefix', 'X-Remote-Extra-', '--requestheader-allowed-names', 'front-proxy-client,aggregator',
  );
  assert.deepEqual(flags.options.requestHeader, {
    usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefixes: ['X-Remote-Extra-'], clientCaFile: '/k/proxy.crt',
    allowedNames: ['front-proxy-client', 'aggregator'],
  });
  assert.throws(() => parse('--requestheader-username-headers', 'X-Remote-User'), /needs --requestheader-client-ca-file/);
});
