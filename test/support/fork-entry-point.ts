// Starts a test's helper process from the build the test runs: its compiled .js under dist/ when
// the test is compiled (make test), its .ts source through tsx otherwise.
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { entryPointArgs } from '../../internal/cluster/build-layout.ts';

/** Forks `source` (a .ts path from the repository root) with `args`, in the running build. */
export function forkEntryPoint(source: string, args: readonly string[], options: Omit<ForkOptions, 'execArgv'> = {}): ChildProcess {
  const { path, execArgv } = moduleInBuild(source);
  return fork(path, args, { ...options, execArgv: [...execArgv] });
}

/** Where `source` (a .ts path from the repository root) is in the running build, and the node arguments a child needs to import it. */
export function moduleInBuild(source: string): { readonly path: string; readonly execArgv: readonly string[] } {
  const nodeArgs = entryPointArgs(source);
  const path = nodeArgs[nodeArgs.length - 1];
  if (path === undefined) throw new Error(`assert: no module for ${source}`);
  return { path, execArgv: nodeArgs.slice(0, -1) };
}
