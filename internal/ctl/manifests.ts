// Manifests for apply and delete -f: a file, every .yaml/.yml/.json file of a directory (not
// recursive, in name order), or standard input; each file may hold several YAML documents and
// `kind: List` objects are unpacked.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CtlError } from './command.ts';

/** One object of a manifest, with where it came from (for error messages). */
export interface Manifest {
  readonly source: string;
  readonly object: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [field: string]: unknown };
}

const manifestExtensions = ['.yaml', '.yml', '.json'];

/** The files `path` names: itself, or the manifests of a directory. */
function manifestFiles(path: string): string[] {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new CtlError(`-f ${path}: no such file or directory`);
  }
  if (!isDirectory) return [path];
  const files = readdirSync(path).filter((f) => manifestExtensions.some((e) => f.endsWith(e))).sort().map((f) => join(path, f));
  if (files.length === 0) throw new CtlError(`-f ${path}: the directory has no .yaml, .yml or .json file`);
  return files;
}

/** Checks one parsed document and unpacks Lists. */
function objectsOf(value: unknown, source: string): Manifest[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object' || Array.isArray(value)) throw new CtlError(`${source}: a document is not an object; each YAML document must be one Kubernetes object`);
  const object = value as Record<string, unknown>;
  if (object['kind'] === 'List' && Array.isArray(object['items'])) return (object['items'] as unknown[]).flatMap((item) => objectsOf(item, source));
  const metadata = object['metadata'] as { name?: unknown } | undefined;
  if (typeof object['apiVersion'] !== 'string' || typeof object['kind'] !== 'string') throw new CtlError(`${source}: an object has no apiVersion or kind; add them`);
  if (typeof metadata?.name !== 'string' || metadata.name === '') throw new CtlError(`${source}: a ${object['kind']} has no metadata.name; add one`);
  return [{ source, object: object as Manifest['object'] }];
}

/** A YAML error's first line, whole: its text ends "at line 4, column 1:" before a code excerpt. */
function yamlErrorText(error: { message: string; linePos?: readonly [{ line: number; col: number }, ...unknown[]] | undefined }): string {
  const first = (error.message.split('\n')[0] ?? '').replace(/:\s*$/, '').replace(/ at line \d+, column \d+$/, '');
  const at = error.linePos?.[0];
  return at === undefined ? first : `${first} (line ${at.line}, column ${at.col})`;
}

/** Parses YAML (or JSON) text holding any number of documents. */
export function parseManifests(text: string, source: string): Manifest[] {
  return parseAllDocuments(text).flatMap((document) => {
    const firstError = document.errors[0];
    if (firstError !== undefined) throw new CtlError(`${source}: not valid YAML: ${yamlErrorText(firstError)}`);
    return objectsOf(document.toJS(), source);
  });
}

/** Reads all of standard input. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}

/** Every object the -f arguments name (`-` is standard input), relative to `cwd`. */
export async function readManifests(paths: readonly string[], cwd: string): Promise<Manifest[]> {
  const manifests: Manifest[] = [];
  for (const path of paths) {
    if (path === '-') {
      manifests.push(...parseManifests(await readStdin(), 'standard input'));
      continue;
    }
    for (const file of manifestFiles(resolve(cwd, path))) manifests.push(...parseManifests(readFileSync(file, 'utf8'), file));
  }
  if (manifests.length === 0) throw new CtlError(`no objects in ${paths.join(', ')}; give files with Kubernetes objects`);
  return manifests;
}
