// Issue 21's curl + protoc acceptance on a real 3-process cluster: curl asking for Protobuf gets
// bytes beginning `k8s\0`; protoc (Debian protobuf-compiler) decodes the runtime.Unknown after
// them and, from its `raw` bytes, the NamespaceList, which names the namespaces the JSON answer
// names. Then kube-apiserver's negotiation of a Table asked for in Protobuf: 406 alone, JSON when
// JSON is listed after it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startClusterFixture, type ClusterFixture } from '../support/cluster-fixture.ts';
import { decodeEnvelope, envelopeMagic } from '../support/protobuf-test-client.ts';

const curlPath = '/usr/bin/curl';
const protocPath = '/usr/bin/protoc';
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const missing = [curlPath, protocPath].filter((p) => !existsSync(p));

let fixture: ClusterFixture;

before(async () => {
  if (missing.length > 0) return;
  fixture = await startClusterFixture();
  await fixture.clients[1]!.call('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'curl-made', labels: { via: 'json' } } } });
});

after(async () => {
  await fixture?.close();
});

/** One curl request (`-sk`, the admin token) through `replica`: status, content type and body bytes. */
async function curl(replica: number, path: string, accept: string): Promise<{ status: number; contentType: string; body: Buffer }> {
  const bodyFile = join(fixture.dataDir, `curl-${replica}-${Math.random().toString(36).slice(2)}`);
  const url = `${fixture.cluster.replicas[replica]!.apiUrl}${path}`;
  const args = ['-sk', '-H', `Accept: ${accept}`, '-H', `Authorization: Bearer ${fixture.cluster.adminToken}`, '-o', bodyFile, '-w', '%{http_code} %{content_type}', url];
  const written = await new Promise<string>((resolve, reject) => {
    execFile(curlPath, args, { timeout: 30_000 }, (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(`curl ${url}: ${error.message} ${stderr}`))));
  });
  const [status, ...contentType] = written.split(' ');
  return { status: Number(status), contentType: contentType.join(' '), body: readFileSync(bodyFile) };
}

/** protoc --decode=<message> of `input` against one vendored .proto file, run in the repository as the issue shows it. */
function protocDecode(message: string, protoFile: string, input: Buffer): string {
  return execFileSync(protocPath, [`--decode=${message}`, '-I', 'proto', `proto/${protoFile}`], { cwd: repoRoot, input, encoding: 'utf8', timeout: 30_000 });
}

/** The bytes of a protoc text-format string literal (C escapes: \n \r \t \" \' \\, octal \NNN, hex \xNN). */
function unescapeTextFormat(literal: string): Buffer {
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, r: 13, t: 9, '"': 34, "'": 39, '\\': 92, a: 7, b: 8, f: 12, v: 11, '?': 63 };
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = literal[++i] ?? '';
    if (next in simple) bytes.push(simple[next]!);
    else if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(literal.slice(i))![0];
      bytes.push(parseInt(octal, 8));
      i += octal.length - 1;
    } else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(literal.slice(i + 1))![0];
      bytes.push(parseInt(hex, 16));
      i += hex.length;
    } else assert.fail(`unknown escape \\${next} in protoc's output`);
  }
  return Buffer.from(bytes);
}

/** The fields of protoc's text output found at `path` (block names, then the field), as raw literals. */
function textFormatValues(text: string, path: readonly string[]): string[] {
  const blocks: string[] = [];
  const values: string[] = [];
  for (const line of text.split('\n')) {
    const open = /^\s*(\w+) \{$/.exec(line);
    if (open) blocks.push(open[1]!);
    else if (/^\s*\}$/.test(line)) blocks.pop();
    else {
      const field = /^\s*(\w+): (.*)$/.exec(line);
      if (field && [...blocks, field[1]].join('.') === path.join('.')) values.push(field[2]!);
    }
  }
  return values;
}

/** A quoted text-format string's content. */
function quoted(literal: string): string {
  assert.match(literal, /^".*"$/s);
  return literal.slice(1, -1);
}

test('curl asking for Protobuf gets k8s\\0 + runtime.Unknown, and protoc decodes its raw NamespaceList to the namespaces JSON lists', { skip: missing.length > 0 ? `missing ${missing.join(', ')}` : false }, async () => {
  for (const replica of [0, 1, 2]) {
    const answer = await curl(replica, '/api/v1/namespaces', 'application/vnd.kubernetes.protobuf');
    assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 300));
    assert.equal(answer.contentType, 'application/vnd.kubernetes.protobuf');
    assert.ok(answer.body.subarray(0, 4).equals(envelopeMagic), `replica ${replica}: ${JSON.stringify(answer.body.subarray(0, 8).toString('latin1'))}`);

    const unknown = protocDecode('k8s.io.apimachinery.pkg.runtime.Unknown', 'k8s.io/apimachinery/pkg/runtime/generated.proto', answer.body.subarray(4));
    assert.deepEqual(textFormatValues(unknown, ['typeMeta', 'apiVersion']), ['"v1"']);
    assert.deepEqual(textFormatValues(unknown, ['typeMeta', 'kind']), ['"NamespaceList"']);
    const rawLiterals = textFormatValues(unknown, ['raw']);
    assert.equal(rawLiterals.length, 1, unknown.slice(0, 300));
    const raw = unescapeTextFormat(quoted(rawLiterals[0]!));
    assert.ok(raw.equals(decodeEnvelope(answer.body).raw), 'protoc and protobufjs read the same raw bytes');

    const list = protocDecode('k8s.io.api.core.v1.NamespaceList', 'k8s.io/api/core/v1/generated.proto', raw);
    const names = textFormatValues(list, ['items', 'metadata', 'name']).map(quoted);
    const phases = textFormatValues(list, ['items', 'status', 'phase']).map(quoted);

    const json = await curl((replica + 1) % 3, '/api/v1/namespaces', 'application/json');
    assert.equal(json.status, 200);
    const jsonList = JSON.parse(json.body.toString('utf8')) as { kind: string; items: { metadata: { name: string }; status: { phase: string } }[] };
    assert.equal(jsonList.kind, 'NamespaceList');
    assert.deepEqual(names, jsonList.items.map((n) => n.metadata.name), `replica ${replica}: protoc's names against JSON's`);
    assert.deepEqual(phases, jsonList.items.map((n) => n.status.phase));
    for (const expected of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'curl-made']) assert.ok(names.includes(expected), `${expected} in ${names.join(' ')}`);
  }
});

test('a Table asked for in Protobuf alone is 406; listed before JSON, the answer is JSON', { skip: missing.length > 0 ? `missing ${missing.join(', ')}` : false }, async () => {
  const table = 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1';
  const refused = await curl(0, '/api/v1/namespaces', table);
  assert.equal(refused.status, 406, refused.body.toString('utf8').slice(0, 300));

  const fallback = await curl(1, '/api/v1/namespaces', `${table}, application/json`);
  assert.equal(fallback.status, 200);
  assert.equal(fallback.contentType, 'application/json');
  assert.equal((JSON.parse(fallback.body.toString('utf8')) as { kind: string }).kind, 'NamespaceList');

  const jsonTable = await curl(2, '/api/v1/namespaces', `${table}, application/json;as=Table;g=meta.k8s.io;v=v1`);
  assert.equal(jsonTable.status, 200);
  assert.equal((JSON.parse(jsonTable.body.toString('utf8')) as { kind: string }).kind, 'Table');
});

test('application/vnd.orch.protobuf is an alias: the same envelope, answered in the media type asked for', { skip: missing.length > 0 ? `missing ${missing.join(', ')}` : false }, async () => {
  const answer = await curl(2, '/api/v1/namespaces/default', 'application/vnd.orch.protobuf');
  assert.equal(answer.status, 200);
  assert.equal(answer.contentType, 'application/vnd.orch.protobuf');
  const unknown = protocDecode('k8s.io.apimachinery.pkg.runtime.Unknown', 'k8s.io/apimachinery/pkg/runtime/generated.proto', answer.body.subarray(4));
  assert.deepEqual(textFormatValues(unknown, ['typeMeta', 'kind']), ['"Namespace"']);
  const namespace = protocDecode('k8s.io.api.core.v1.Namespace', 'k8s.io/api/core/v1/generated.proto', unescapeTextFormat(quoted(textFormatValues(unknown, ['raw'])[0]!)));
  assert.deepEqual(textFormatValues(namespace, ['metadata', 'name']), ['"default"']);
});
