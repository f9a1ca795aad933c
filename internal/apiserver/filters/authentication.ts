import { timingSafeEqual } from 'node:crypto';
import { StatusError } from '../../registry/errors/status-error.ts';

/**
 * Paths anyone may read: the health endpoints and `/version` (with or without its trailing
 * slash), as kube-apiserver's system:public-info-viewer role grants them to unauthenticated users.
 */
const publicPaths = [/^\/healthz(\/.*)?$/, /^\/livez(\/.*)?$/, /^\/readyz(\/.*)?$/, /^\/version\/?$/];

/** Whether a path is served without authentication. */
export function isPublicPath(path: string): boolean {
  return publicPaths.some((re) => re.test(path));
}

/** Compares a bearer token with the admin token in constant time. */
function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks the static admin bearer token. Throws a 401 Status when it is missing or wrong, unless
 * the path is public.
 */
export function authenticate(path: string, authorization: string | undefined, adminToken: string): void {
  if (isPublicPath(path)) return;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match || !tokenMatches(match[1] ?? '', adminToken)) throw new StatusError(401, 'Unauthorized', 'Unauthorized');
}
