// Vendors Kubernetes' v1.28 Protobuf definitions into proto/: every `generated.proto` under the
// reference data's proto/k8s.io/ (../shared/kubernetes-api-v1.28, as its README describes it),
// unchanged and at the same paths, and its Apache 2.0 licence as proto/LICENSE-kubernetes. The
// Protobuf codec (internal/apiserver/protobuf/) loads these files; proto/README.md says what orch
// derives from them. Files of orch's own in proto/ (raft.proto, README.md) are left alone.
//
// Usage: node --import tsx scripts/vendor-proto.ts [--check] [--source DIR]
// --check exits 1 when proto/ differs from what the script would write (a missing, changed or extra file).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Where the reference data sits beside the repository. */
export const defaultProtoSource = join(root, '..', 'shared', 'kubernetes-api-v1.28');

/** The vendored tree under proto/ and the licence's name there. */
const vendoredTree = 'k8s.io';
const licenceName = 'LICENSE-kubernetes';

function filesUnder(directory: string, relative: string): string[] {
  return readdirSync(join(directory, relative), { withFileTypes: true }).flatMap((entry) => {
    const path = `${relative}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(directory, path) : [path];
  });
}

/** What proto/ should hold, path (relative to proto/) to content: the .proto tree and the licence. */
export function vendoredProtoFiles(source: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const path of filesUnder(join(source, 'proto'), vendoredTree).sort()) {
    if (path.endsWith('.proto')) files.set(path, readFileSync(join(source, 'proto', path)));
  }
  files.set(licenceName, readFileSync(join(source, 'LICENSE')));
  return files;
}

/** What proto/ holds of the vendored files now (orch's own files left out). */
export function currentProtoFiles(protoDirectory: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (existsSync(join(protoDirectory, vendoredTree))) {
    for (const path of filesUnder(protoDirectory, vendoredTree).sort()) files.set(path, readFileSync(join(protoDirectory, path)));
  }
  if (existsSync(join(protoDirectory, licenceName))) files.set(licenceName, readFileSync(join(protoDirectory, licenceName)));
  return files;
}

/** The paths where `current` differs from `wanted`: missing, changed or extra. */
export function protoDifferences(wanted: ReadonlyMap<string, Buffer>, current: ReadonlyMap<string, Buffer>): string[] {
  const differences: string[] = [];
  for (const [path, content] of wanted) {
    const have = current.get(path);
    if (have === undefined) differences.push(`missing ${path}`);
    else if (!have.equals(content)) differences.push(`changed ${path}`);
  }
  for (const path of current.keys()) if (!wanted.has(path)) differences.push(`extra ${path}`);
  return differences;
}

function writeVendored(protoDirectory: string, files: ReadonlyMap<string, Buffer>): void {
  rmSync(join(protoDirectory, vendoredTree), { recursive: true, force: true });
  for (const [path, content] of files) {
    mkdirSync(dirname(join(protoDirectory, path)), { recursive: true });
    writeFileSync(join(protoDirectory, path), content);
    chmodSync(join(protoDirectory, path), 0o644); // the reference copy is read-only; the repository's is not
  }
}

function main(argv: readonly string[]): void {
  const sourceAt = argv.indexOf('--source');
  const source = sourceAt >= 0 ? (argv[sourceAt + 1] ?? '') : defaultProtoSource;
  if (!existsSync(join(source, 'proto', vendoredTree))) {
    console.error(`vendor-proto: ${source}/proto/${vendoredTree} does not exist`);
    process.exit(2);
  }
  const protoDirectory = join(root, 'proto');
  const wanted = vendoredProtoFiles(source);
  if (argv.includes('--check')) {
    const differences = protoDifferences(wanted, currentProtoFiles(protoDirectory));
    if (differences.length > 0) {
      console.error(`proto/ differs from ${source}: ${differences.slice(0, 20).join(', ')}${differences.length > 20 ? ', …' : ''}; run make vendor-proto`);
      process.exit(1);
    }
    console.log(`proto/ is current (${wanted.size} files)`);
    return;
  }
  writeVendored(protoDirectory, wanted);
  console.log(`wrote ${wanted.size} files under ${protoDirectory}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
