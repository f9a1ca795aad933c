// The one protobufjs root of the vendored Kubernetes .proto files (proto/k8s.io/**), loaded on
// first use and shared by the whole process. Field names stay as the files spell them (keepCase),
// which are Kubernetes' JSON names but for a few (field-plan.ts matches those by the OpenAPI
// document). protobufjs reads the definitions only; the codec writes and reads the bytes itself.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

/** The vendored proto/ directory: beside internal/ in the repository and in dist/ (scripts/build.sh copies it). */
const protoDirectory = fileURLToPath(new URL('../../../proto/', import.meta.url));

let root: protobuf.Root | undefined;

function generatedProtoFiles(directory: string, relative = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(directory, relative), { withFileTypes: true })) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) files.push(...generatedProtoFiles(directory, path));
    else if (entry.name === 'generated.proto') files.push(path);
  }
  return files.sort();
}

/** The resolved root holding every vendored Kubernetes message; throws (a bug) if proto/ is missing. */
function kubernetesProtoRoot(): protobuf.Root {
  if (root !== undefined) return root;
  const loaded = new protobuf.Root();
  // Imports name paths under proto/ (`k8s.io/api/core/v1/generated.proto`).
  loaded.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(protoDirectory, target));
  loaded.loadSync(generatedProtoFiles(protoDirectory, 'k8s.io').map((f) => join(protoDirectory, f)), { keepCase: true });
  loaded.resolveAll();
  root = loaded;
  return root;
}

/** The message type of a fully qualified name (no leading dot), or undefined. */
export function lookupMessage(fullName: string): protobuf.Type | undefined {
  const found = kubernetesProtoRoot().lookup(fullName);
  return found instanceof protobuf.Type ? found : undefined;
}
