// --token-auth-file: static bearer tokens from a CSV file of `token,user,uid[,"group1,group2"]`
// (kube's tokenfile authenticator). Tokens never expire; a change needs a restart.
import { createHash } from 'node:crypto';
import { authenticated, noOpinion } from '../authenticator.ts';
import type { TokenAuthenticator } from '../authenticator.ts';
import { parseCsv } from './csv.ts';
import type { UserInfo } from '../user-info.ts';

/** A problem worth a warning in the log that does not stop the server (kube warns too). */
export interface TokenFileWarning {
  readonly line: number;
  readonly message: 'empty token' | 'duplicate token';
}

/** The parsed file: users by the SHA-256 of their token, and the warnings. */
export interface TokenFile {
  readonly usersByTokenHash: ReadonlyMap<string, UserInfo>;
  readonly warnings: readonly TokenFileWarning[];
}

/** The key a token is filed under: its digest, so lookups compare digests and never the token's bytes. */
function tokenKey(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64');
}

/**
 * Parses a token file. Like kube: a record needs at least 3 fields (else the file is refused); an
 * empty token is skipped with a warning; of duplicate tokens the later record wins, with a
 * warning; groups are the 4th field split on commas (empty names dropped); fields past the 4th
 * are ignored. Throws (naming the line, never a token) on malformed CSV or a short record.
 */
export function parseTokenFile(text: string, path: string): TokenFile {
  const usersByTokenHash = new Map<string, UserInfo>();
  const warnings: TokenFileWarning[] = [];
  for (const { line, fields } of parseCsv(text)) {
    if (fields.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${fields.length} at line ${line}`);
    const [token, username, uid, groupField] = fields as [string, string, string, string | undefined];
    if (token === '') {
      warnings.push({ line, message: 'empty token' });
      continue;
    }
    const key = tokenKey(token);
    if (usersByTokenHash.has(key)) warnings.push({ line, message: 'duplicate token' });
    const groups = groupField === undefined ? [] : groupField.split(',').filter((g) => g !== '');
    usersByTokenHash.set(key, { username, uid, groups, extra: {} });
  }
  return { usersByTokenHash, warnings };
}

/**
 * `file` with `entries` added before its own records (a token the file also has keeps the file's
 * user, with a warning at line 0). Empty tokens are refused: they would match nothing anyway.
 */
export function withStaticTokens(file: TokenFile, entries: readonly { readonly token: string; readonly user: UserInfo }[]): TokenFile {
  const usersByTokenHash = new Map<string, UserInfo>();
  const warnings: TokenFileWarning[] = [...file.warnings];
  for (const { token, user } of entries) {
    if (token === '') throw new Error('assert: a static token is empty');
    usersByTokenHash.set(tokenKey(token), user);
  }
  for (const [key, user] of file.usersByTokenHash) {
    if (usersByTokenHash.has(key)) warnings.push({ line: 0, message: 'duplicate token' });
    usersByTokenHash.set(key, user);
  }
  return { usersByTokenHash, warnings };
}

/** The token-file authenticator: a known token is its user; an unknown one is no opinion. */
export function tokenFileAuthenticator(file: TokenFile): TokenAuthenticator {
  return {
    name: 'token-file',
    authenticateToken(token) {
      const user = file.usersByTokenHash.get(tokenKey(token));
      return Promise.resolve(user === undefined ? noOpinion : authenticated(user));
    },
  };
}
