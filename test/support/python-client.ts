// The Debian python3-kubernetes client, as the e2e tests run it.
import { execFileSync } from 'node:child_process';

export const pythonPath = '/usr/bin/python3';

/** Why the Python client cannot run here (a sub-test's skip reason), or null when it can. */
export function pythonClientMissing(): string | null {
  try {
    execFileSync(pythonPath, ['-c', 'import kubernetes'], { stdio: 'ignore', timeout: 30_000 });
    return null;
  } catch {
    return `${pythonPath} cannot import kubernetes (apt-get install python3-kubernetes; .ci/run does)`;
  }
}
