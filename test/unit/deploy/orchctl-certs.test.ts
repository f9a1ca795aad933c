import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { certsCommand, sharedHostFiles } from '../../../internal/ctl/certs.ts';
import { CtlError, type CtlIo } from '../../../internal/ctl/command.ts';
import { ensureClusterPki } from '../../../internal/certificates/cluster-pki.ts';

/** Runs `orchctl certs <args>` in-process; returns the exit code and what it printed. */
async function certs(args: readonly string[], cwd = '/'): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const io: CtlIo = { stdout: (text) => { stdout += text; }, stderr: () => undefined, env: {}, cwd };
  return { code: await certsCommand.run(args, io), stdout };
}

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-certs-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('certs ca makes the CAs, the service-account keys and the client CA bundle once', async (t) => {
  const dir = join(await tempDir(t), 'pki');
  const first = await certs(['ca', '--pki-dir', dir]);
  assert.equal(first.code, 0);
  assert.match(first.stdout, /made ca, signing-ca, sa, client-ca/);
  assert.deepEqual((await readdir(dir)).sort(), ['ca.crt', 'ca.key', 'client-ca.crt', 'sa.key', 'sa.pub', 'signing-ca.crt', 'signing-ca.key']);
  const caKey = await readFile(join(dir, 'ca.key'), 'utf8');
  const bundle = await readFile(join(dir, 'client-ca.crt'), 'utf8');
  assert.equal(bundle.match(/BEGIN CERTIFICATE/g)?.length, 2);
  assert.equal((await stat(join(dir, 'sa.key'))).mode & 0o777, 0o600);
  const second = await certs(['ca', '--pki-dir', dir]);
  assert.match(second.stdout, /everything was already there/);
  assert.equal(await readFile(join(dir, 'ca.key'), 'utf8'), caKey);
});

test('certs replica issues the peer certificate for its hosts, which a host with only the shared files starts with', async (t) => {
  const root = await tempDir(t);
  const operator = join(root, 'operator');
  await certs(['ca', '--pki-dir', operator]);
  const issued = await certs(['replica', 'orch-4', '--pki-dir', operator, '--hosts', 'h4.example.com,10.0.0.4']);
  assert.equal(issued.code, 0);
  const cert = new X509Certificate(await readFile(join(operator, 'peer-orch-4.crt')));
  assert.equal(cert.subject, 'CN=orch-4');
  assert.equal(cert.checkHost('h4.example.com'), 'h4.example.com');
  assert.equal(cert.checkHost('orch-4'), 'orch-4');
  assert.equal(cert.checkIP('10.0.0.4'), '10.0.0.4');
  assert.ok(cert.checkIssued(new X509Certificate(await readFile(join(operator, 'ca.crt')))));
  // The host: what certs ca and certs replica say to copy, never ca.key.
  const host = join(root, 'host');
  await mkdir(host);
  for (const file of [...sharedHostFiles, 'peer-orch-4.crt', 'peer-orch-4.key']) await copyFile(join(operator, file), join(host, file));
  const pki = await ensureClusterPki(host, ['orch-4']);
  assert.equal(pki.hasCaKey, false);
  assert.equal(pki.replicas['orch-4']?.cert, await readFile(join(operator, 'peer-orch-4.crt'), 'utf8'));
  assert.ok(pki.signingCa.key.includes('PRIVATE KEY'));
});

test('certs replica refuses to replace a certificate, to issue without the CA key, and names without --hosts', async (t) => {
  const dir = await tempDir(t);
  await certs(['ca', '--pki-dir', dir]);
  await certs(['replica', 'orch-1', '--pki-dir', dir, '--hosts', '10.0.0.1']);
  const before = await readFile(join(dir, 'peer-orch-1.crt'), 'utf8');
  await assert.rejects(certs(['replica', 'orch-1', '--pki-dir', dir, '--hosts', '10.0.0.1']), (err: Error) => err instanceof CtlError && err.exitCode === 1 && /already in .*: remove both/.test(err.message));
  assert.equal(await readFile(join(dir, 'peer-orch-1.crt'), 'utf8'), before);
  await assert.rejects(certs(['replica', 'orch-2', '--pki-dir', dir]), (err: Error) => err instanceof CtlError && err.exitCode === 2 && /needs --hosts/.test(err.message));
  await assert.rejects(certs(['replica', 'orch-2', '--pki-dir', dir, '--hosts', 'bad host']), /"bad host" is neither a DNS name nor an IP address/);
  await assert.rejects(certs(['replica', 'Orch_2', '--pki-dir', dir, '--hosts', 'h']), /not a replica name/);
  await rm(join(dir, 'ca.key'));
  await assert.rejects(certs(['replica', 'orch-2', '--pki-dir', dir, '--hosts', 'h2']), (err: Error) => err instanceof CtlError && /ca\.crt in .* without ca\.key: this is a host's copy/.test(err.message));
  const empty = await tempDir(t);
  await assert.rejects(certs(['replica', 'orch-2', '--pki-dir', empty, '--hosts', 'h2']), /no ca\.crt\/\.key in .*: make the CAs first \(orchctl certs ca --pki-dir/);
});

test('certs admin writes a kubeconfig with one context per server and the admin client certificate, reused afterwards', async (t) => {
  const dir = await tempDir(t);
  await certs(['ca', '--pki-dir', dir]);
  const out = join(dir, 'out', '..', 'admin.conf');
  const written = await certs(['admin', '--pki-dir', dir, '--servers', 'https://10.0.0.1:6443,https://h2.example.com:6443/', '--out', out]);
  assert.equal(written.code, 0);
  assert.match(written.stdout, /issued .*admin\.crt; wrote .*admin\.conf with contexts 10\.0\.0\.1, h2\.example\.com/);
  assert.equal((await stat(out)).mode & 0o777, 0o600);
  const config = parse(await readFile(out, 'utf8')) as { clusters: { name: string; cluster: { server: string } }[]; contexts: { name: string }[]; 'current-context': string; users: { user: Record<string, string> }[] };
  assert.deepEqual(config.clusters.map((c) => [c.name, c.cluster.server]), [['10.0.0.1', 'https://10.0.0.1:6443'], ['h2.example.com', 'https://h2.example.com:6443']]);
  assert.deepEqual(config.contexts.map((c) => c.name), ['10.0.0.1', 'h2.example.com']);
  assert.equal(config['current-context'], '10.0.0.1');
  const client = new X509Certificate(Buffer.from(config.users[0]?.user['client-certificate-data'] ?? '', 'base64'));
  assert.equal(client.subject, 'CN=orch-admin\nO=system:masters');
  const again = await certs(['admin', '--pki-dir', dir, '--servers', 'https://a:6443,https://a:7443']);
  assert.match(again.stdout, /reused .*admin\.crt; wrote .*admin\.kubeconfig with contexts a-6443, a-7443/);
  await assert.rejects(certs(['admin', '--pki-dir', dir, '--servers', 'http://a:6443']), /not a replica API URL/);
  await assert.rejects(certs(['admin', '--pki-dir', dir]), (err: Error) => err instanceof CtlError && err.exitCode === 2 && /needs --servers/.test(err.message));
});

test('orchctl certs and each subcommand print their --help; a missing --pki-dir or subcommand is a usage error', async () => {
  const group = await certs(['--help']);
  assert.equal(group.code, 0);
  for (const name of ['ca', 'replica', 'admin']) {
    assert.match(group.stdout, new RegExp(`\\n  ${name} `));
    const help = await certs([name, '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, new RegExp(`^Usage: orchctl certs ${name}`));
  }
  await assert.rejects(certs(['ca']), (err: Error) => err instanceof CtlError && err.exitCode === 2 && err.message === 'orchctl certs ca needs --pki-dir DIR; see orchctl certs ca --help');
  await assert.rejects(certs(['renew']), (err: Error) => err instanceof CtlError && err.exitCode === 2 && /unknown subcommand "renew"/.test(err.message));
});
