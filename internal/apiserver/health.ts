/** Kubernetes-style health endpoints: /healthz, /livez, /readyz with named checks. */

/** A named check: resolves when healthy, throws (or rejects) when not. */
export type HealthCheck = () => Promise<void> | void;

/** The answer of a health endpoint. */
export interface HealthAnswer {
  readonly code: number;
  readonly text: string;
}

async function runCheck(check: HealthCheck): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Runs the checks of one endpoint. `path` is `/readyz`, `/readyz/<check>` and so on. Failures
 * answer 500 with the verbose list; an unknown check name answers 404.
 */
export async function runHealth(endpoint: string, checks: ReadonlyMap<string, HealthCheck>, path: string, query: URLSearchParams): Promise<HealthAnswer> {
  const single = path.slice(endpoint.length + 2);
  if (single !== '') {
    const check = checks.get(single);
    if (!check) return { code: 404, text: `${endpoint} check "${single}" not found\n` };
    const failure = await runCheck(check);
    return failure === null ? { code: 200, text: 'ok' } : { code: 500, text: `[-]${single} failed: ${failure}\n${endpoint} check failed\n` };
  }
  const excluded = new Set(query.getAll('exclude'));
  const lines: string[] = [];
  let failed = false;
  for (const [name, check] of checks) {
    if (excluded.has(name)) {
      lines.push(`[+]${name} excluded: ok`);
      continue;
    }
    const failure = await runCheck(check);
    if (failure === null) lines.push(`[+]${name} ok`);
    else {
      failed = true;
      lines.push(`[-]${name} failed: reason withheld`);
    }
  }
  const verbose = query.has('verbose');
  if (failed) return { code: 500, text: `${lines.join('\n')}\n${endpoint} check failed\n` };
  return { code: 200, text: verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok' };
}
