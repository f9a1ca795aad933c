// Runs orchctl (cmd/orchctl.ts) as its own process, the way an operator does, from the running
// build (dist/ when the tests are compiled), and collects its exit code and output.
import { forkEntryPoint } from './fork-entry-point.ts';

/** What one orchctl run did. */
export interface OrchctlRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The longest one orchctl run may take before the test kills it. */
const orchctlTimeoutMsDefault = 60_000;

/** Runs `orchctl args...` with `kubeconfig` (as --kubeconfig when given); kills it by pid after `timeoutMs`. */
export function runOrchctl(args: readonly string[], options: { kubeconfig?: string; cwd?: string; timeoutMs?: number } = {}): Promise<OrchctlRun> {
  const argv = [...args, ...(options.kubeconfig === undefined ? [] : ['--kubeconfig', options.kubeconfig])];
  const child = forkEntryPoint('cmd/orchctl.ts', argv, { silent: true, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? orchctlTimeoutMsDefault);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === null ? null : -1), stdout, stderr: signal === null ? stderr : `${stderr}(killed by ${signal})` });
    });
  });
}

/** Runs orchctl and returns its stdout, or throws with the command, exit code and output when it did not exit 0. */
export async function orchctlOk(args: readonly string[], options: { kubeconfig?: string; cwd?: string; timeoutMs?: number } = {}): Promise<string> {
  const run = await runOrchctl(args, options);
  if (run.code !== 0) throw new Error(`orchctl ${args.join(' ')} exited ${String(run.code)}:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}
