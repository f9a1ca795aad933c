// Where the running build's files are. orch runs as TypeScript through tsx (tests, development) or
// compiled by tsc to JavaScript under dist/ (make run, make bench: scripts/build.sh), which spends
// less CPU per request: tsx wraps every named closure it creates in a call that sets its name. A
// process starts its children from the build it runs, so a compiled cluster is compiled throughout
// and a test's cluster runs the sources it tests.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether this process runs the compiled JavaScript under dist/ (this file is then a .js file). */
const compiled = import.meta.url.endsWith('.js');

/** The root of the running build: the repository, or its dist/ directory. */
const buildRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The repository's root directory, whichever build runs. */
export const repoRoot = compiled ? join(buildRoot, '..') : buildRoot;

/**
 * The node arguments that run the entry point `source` (a .ts path from the repository root) in the
 * running build: its compiled .js file, or the source itself through tsx (which the child resolves
 * from its working directory, as this process did).
 */
export function entryPointArgs(source: string): string[] {
  if (!source.endsWith('.ts')) throw new Error(`assert: entry point ${source} is not a .ts path`);
  return compiled ? [join(buildRoot, `${source.slice(0, -'.ts'.length)}.js`)] : ['--import', 'tsx', join(repoRoot, source)];
}
