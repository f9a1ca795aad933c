// orchctl's answers to a hostile review: connection flags anywhere before a subcommand, errors that
// keep the exec plugin's installHint and say each cause once, hints that fit the command, snapshot
// save's checks of its destination and its choice of replica, one-line usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../../internal/client/errors.ts';
import { runOrchctl } from '../../../internal/ctl/dispatcher.ts';
import { toCtlError } from '../../../internal/ctl/errors.ts';
import { parseManifests } from '../../../internal/ctl/manifests.ts';
import { encodeSnapshotHeader, type SnapshotHeader } from '../../../internal/storage/snapshot-file.ts';
import { recordingIo, sendJson, sendStatus, startStubCluster, type StubCluster } from './stub-replicas.ts';

const data = Buffer.alloc(10_000, 3);

function snapshotBody(replica: string, revision: number): Buffer {
  const header: SnapshotHeader = {
    format: 1, revision, raftIndex: revision + 10, raftTerm: 2, clusterId: 'c-1', replica, createdAt: '2026-11-27T20:00:00Z', stateFormat: 1,
    size: data.length, sha256: createHash('sha256').update(data).digest('hex'),
  };
  return Buffer.concat([encodeSnapshotHeader(header), data]);
}

async function withStubs(count: number, body: (cluster: StubCluster) => Promise<void>): Promise<void> {
  const cluster = await startStubCluster(count);
  try {
    await body(cluster);
  } finally {
    await cluster.close();
  }
}

test('connection flags work before the command, between command and subcommand, and after', () =>
  withStubs(1, async (cluster) => {
    const members = { leader: 'orch-1', members: [{ name: 'orch-1', peerAddress: 'h:1', role: 'voter', matchIndex: 5, lag: 0 }] };
    const replica = cluster.replicas[0];
    if (replica !== undefined) replica.handler = (_req, res) => sendJson(res, 200, members);
    const k = cluster.kubeconfigPath;
    for (const argv of [['--kubeconfig', k, 'member', 'list'], ['member', `--kubeconfig=${k}`, 'list'], ['member', 'list', '--kubeconfig', k], ['--request-timeout', '5s', 'member', '--kubeconfig', k, 'list']]) {
      const io = recordingIo(cluster.dir);
      assert.equal(await runOrchctl(argv, io), 0, `${argv.join(' ')}: ${io.err}`);
      assert.match(io.out, /^orch-1\s+voter/m, argv.join(' '));
    }
  }));

test('an exec plugin that is not found shows the kubeconfig\'s installHint, on one line', () => {
  const error = Object.assign(new Error('exec: executable orch-login not found\n\nInstall it with: apt-get install orch-login'), { name: 'ExecPluginError' });
  assert.equal(toCtlError(error).message, 'exec: executable orch-login not found; Install it with: apt-get install orch-login');
});

test('API hints fit the command: none but the server\'s message unless the command gives one', () => {
  const busy = new ApiError(503, 'ServiceUnavailable', '2 snapshot downloads are running already', undefined, 'https://r1');
  assert.doesNotMatch(toCtlError(busy).message, /has a leader/);
  const invalid = new ApiError(400, 'BadRequest', 'orch-3 is a learner', undefined, 'https://r1');
  assert.equal(toCtlError(invalid).message, 'orch-3 is a learner (400 BadRequest from https://r1)');
  assert.match(toCtlError(invalid, undefined, { 400: 'see orchctl member list' }).message, /; see orchctl member list$/);
});

test('member remove and leader transfer of an unknown member point at orchctl member list, not at a namespace', () =>
  withStubs(1, async (cluster) => {
    const replica = cluster.replicas[0];
    if (replica !== undefined) {
      replica.handler = (req, res) => (req.url === '/orch/v1/leader' ? sendStatus(res, 400, 'BadRequest', 'orch-3 is a learner') : sendStatus(res, 404, 'NotFound', 'no member nobody'));
    }
    const remove = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['member', 'remove', 'nobody', '--kubeconfig', cluster.kubeconfigPath], remove), 1);
    assert.match(remove.err, /^error: no member nobody \(404 NotFound from [^)]+\); orchctl member list shows the members\n$/);
    const transfer = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['leader', 'transfer', 'orch-3', '--kubeconfig', cluster.kubeconfigPath], transfer), 1);
    assert.match(transfer.err, /^error: orch-3 is a learner \(400 BadRequest from [^)]+\); leadership goes to a voter[^\n]*\n$/);
  }));

test('a cause already in the message is not repeated', async () => {
  const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/proc/nope/x'"), { code: 'ENOENT' });
  assert.equal(toCtlError(enoent).message, "ENOENT: no such file or directory, open '/proc/nope/x'");
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  assert.equal(toCtlError(new Error('fetch failed', { cause: refused })).message, 'fetch failed (connect ECONNREFUSED 127.0.0.1:1)');
  assert.equal(toCtlError(refused).message, 'connect ECONNREFUSED 127.0.0.1:1');
  const io = recordingIo(tmpdir());
  assert.equal(await runOrchctl(['snapshot', 'status', tmpdir()], io), 1);
  assert.equal(io.err.match(/EISDIR/g)?.length ?? 0, io.err.includes('EISDIR') ? 1 : 0, io.err);
  assert.match(io.err, /^error: [^\n]+\n$/);
});

test('snapshot save refuses a directory, a missing or unwritable parent before downloading anything', () =>
  withStubs(1, async (cluster) => {
    const replica = cluster.replicas[0];
    if (replica !== undefined) replica.handler = (_req, res) => res.end(snapshotBody('orch-1', 7));
    const k = cluster.kubeconfigPath;
    mkdirSync(join(cluster.dir, 'adir'));
    const cases: Array<[string, RegExp]> = [
      ['adir', /adir is a directory; give the path of the file to write/],
      ['missing/x.snap', /missing: no such directory/],
    ];
    if (process.getuid?.() !== 0) {
      mkdirSync(join(cluster.dir, 'ro'));
      chmodSync(join(cluster.dir, 'ro'), 0o500);
      cases.push(['ro/x.snap', /ro: this user may not write there/]);
    }
    for (const [target, message] of cases) {
      const io = recordingIo(cluster.dir);
      assert.equal(await runOrchctl(['snapshot', 'save', target, '--kubeconfig', k], io), 1, target);
      assert.match(io.err, new RegExp(`^error: [^\\n]*${message.source}[^\\n]*\\n$`), target);
    }
    assert.equal(replica?.received.length, 0, 'nothing was asked of the replica');
    assert.deepEqual(readdirSync(cluster.dir).filter((f) => f.endsWith('.part')), []);
    // An existing file is replaced, as --help says.
    writeFileSync(join(cluster.dir, 'old.snap'), 'old');
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'old.snap', '--kubeconfig', k], io), 0, io.err);
    const help = recordingIo(cluster.dir);
    await runOrchctl(['snapshot', 'save', '--help'], help);
    assert.match(help.out, /an existing <file> is replaced/);
  }));

test('snapshot save prefers a follower, skips a replica that refuses with 503, and names the replica and revision', () =>
  withStubs(3, async (cluster) => {
    const [leader, stale, follower] = cluster.replicas;
    const role = (name: string, r: string) => ({ name, role: r });
    const serve = (name: string, r: string, snapshot: 'ok' | 'stale') => (req: { url: string }, res: Parameters<typeof sendJson>[0]) => {
      if (req.url === '/orch/v1/status') return sendJson(res, 200, role(name, r));
      if (snapshot === 'stale') return sendStatus(res, 503, 'ServiceUnavailable', `${name} cannot confirm it is current`);
      return res.end(snapshotBody(name, name === 'orch-1' ? 50 : 49));
    };
    if (leader === undefined || stale === undefined || follower === undefined) throw new Error('assert: three stubs');
    leader.handler = serve('orch-1', 'leader', 'ok');
    stale.handler = serve('orch-2', 'follower', 'stale');
    follower.handler = serve('orch-3', 'follower', 'ok');
    const io = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 's.snap', '--kubeconfig', cluster.kubeconfigPath], io), 0, io.err);
    assert.match(io.out, new RegExp(`^saved .*s\\.snap from ${follower.url}\\n`));
    assert.match(io.out, /^revision:\s+49$/m);
    assert.match(io.out, /^replica:\s+orch-3$/m);
    assert.match(io.err, /orch-2 cannot confirm it is current[^\n]*; trying the next replica\n/);
    assert.equal(leader.received.filter((r) => r.url === '/orch/v1/snapshot').length, 0, 'the leader was not asked');
    // Every follower refusing: the leader sends it.
    follower.handler = serve('orch-3', 'follower', 'stale');
    const fallback = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 't.snap', '--kubeconfig', cluster.kubeconfigPath], fallback), 0, fallback.err);
    assert.match(fallback.out, /^replica:\s+orch-1$/m);
    // --endpoint: only that one, its refusal is the error.
    const only = recordingIo(cluster.dir);
    assert.equal(await runOrchctl(['snapshot', 'save', 'u.snap', '--endpoint', stale.url, '--kubeconfig', cluster.kubeconfigPath], only), 1);
    assert.match(only.err, /^error: orch-2 cannot confirm it is current \(503[^\n]*\n$/);
    assert.ok(!existsSync(join(cluster.dir, 'u.snap')));
  }));

test('snapshot restore refuses two peers with the same address, and a name given twice', async () => {
  for (const peers of ['r1=127.0.0.1:1,r2=127.0.0.1:1', 'r1=h:1,r1=h:2']) {
    const io = recordingIo(tmpdir());
    assert.equal(await runOrchctl(['snapshot', 'restore', 'f.snap', '--data-dir', join(tmpdir(), 'never'), '--name', 'r1', '--peers', peers], io), 2, peers);
    assert.match(io.err, /^error: --peers: [^\n]+\n$/, peers);
  }
});

test('an unknown flag names itself and the command\'s --help, without parseArgs\' advice', async () => {
  const io = recordingIo(tmpdir());
  assert.equal(await runOrchctl(['member', 'list', '--x'], io), 2);
  assert.equal(io.err, 'error: unknown flag --x for orchctl member list; see orchctl member list --help\n');
});

test('a YAML error is its first line whole, with its line and column', () => {
  assert.throws(() => parseManifests('a: 1\nb:\n  - c\n d: [\n', 'm.yaml'), (e: Error) => {
    assert.doesNotMatch(e.message, /:$/);
    assert.match(e.message, /^m\.yaml: not valid YAML: .+ \(line \d+, column \d+\)$/);
    return true;
  });
});

test('no usage has an empty Flags: heading', async () => {
  for (const argv of [['member', 'remove'], ['member', 'promote'], ['leader', 'transfer'], ['member', 'list'], ['snapshot', 'save']]) {
    const io = recordingIo(tmpdir());
    await runOrchctl([...argv, '--help'], io);
    assert.doesNotMatch(io.out, /Flags:\n(\n|Connection flags:)/, argv.join(' '));
  }
});

test('Ctrl-C during snapshot save removes the .part and exits 130', () =>
  withStubs(1, async (cluster) => {
    const replica = cluster.replicas[0];
    const body = snapshotBody('orch-1', 7);
    // Sends the header and part of the data, then stalls: the .part exists while orchctl waits.
    if (replica !== undefined) {
      replica.handler = (req, res) => {
        if (req.url !== '/orch/v1/snapshot') return sendStatus(res, 404, 'NotFound', 'no');
        res.writeHead(200, { 'content-length': String(body.length) });
        res.write(body.subarray(0, 2000));
      };
    }
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(process.cwd(), 'cmd/orchctl.ts'), 'snapshot', 'save', 'c.snap', '--kubeconfig', cluster.kubeconfigPath], { cwd: cluster.dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const part = join(cluster.dir, 'c.snap.part');
      const { statSync } = await import('node:fs');
      for (let i = 0; i < 300 && !(existsSync(part) && statSync(part).size > 0); i += 1) await new Promise((r) => setTimeout(r, 50));
      assert.ok(existsSync(part), `the download started: ${stderr}`);
      child.kill('SIGINT');
      assert.equal(await exited, 130);
      assert.deepEqual(readdirSync(cluster.dir).filter((f) => f.startsWith('c.snap')), []);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }));

test('commands that do not connect accept the connection flags too', async () => {
  const io = recordingIo(tmpdir());
  assert.equal(await runOrchctl(['--kubeconfig', '/k', 'snapshot', 'status', tmpdir()], io), 1);
  assert.match(io.err, /is a directory/);
});
