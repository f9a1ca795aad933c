import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Returns the cluster's static admin bearer token stored at `filePath`, creating it (mode 0600)
 * on first use so that restarts keep the kubeconfig valid.
 */
export function ensureAdminToken(filePath: string): string {
  if (existsSync(filePath)) {
    const token = readFileSync(filePath, 'utf8').trim();
    if (token.length < 32) throw new Error(`admin token file ${filePath} is shorter than 32 characters`);
    return token;
  }
  mkdirSync(dirname(filePath), { recursive: true });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(filePath, `${token}\n`, { mode: 0o600 });
  return token;
}
