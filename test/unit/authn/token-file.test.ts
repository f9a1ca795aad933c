// --token-auth-file: kube's CSV rules, and lookups that never match a wrong token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticated, noOpinion } from '../../../internal/authn/authenticator.ts';
import { CsvSyntaxError, parseCsv } from '../../../internal/authn/tokenfile/csv.ts';
import { parseTokenFile, tokenFileAuthenticator } from '../../../internal/authn/tokenfile/token-file.ts';

const file = ['admin-token,admin,uid-1,"system:masters,dev"', 'plain-token,plain,uid-2', '', 'third,third-user,uid-3,single,ignored-column', ''].join('\n');

describe('token file', () => {
  it('authenticates a listed token with its user, uid and quoted groups', async () => {
    const auth = tokenFileAuthenticator(parseTokenFile(file, 'tokens.csv'));
    assert.deepEqual(await auth.authenticateToken('admin-token'), authenticated({ username: 'admin', uid: 'uid-1', groups: ['system:masters', 'dev'], extra: {} }));
    assert.deepEqual(await auth.authenticateToken('plain-token'), authenticated({ username: 'plain', uid: 'uid-2', groups: [], extra: {} }));
    assert.deepEqual(await auth.authenticateToken('third'), authenticated({ username: 'third-user', uid: 'uid-3', groups: ['single'], extra: {} }));
  });

  it('has no opinion on an unknown token, a prefix or an extension of a listed one', async () => {
    const auth = tokenFileAuthenticator(parseTokenFile(file, 'tokens.csv'));
    for (const token of ['nope', 'admin-toke', 'admin-token-', 'ADMIN-TOKEN', '']) assert.deepEqual(await auth.authenticateToken(token), noOpinion, token);
  });

  it('skips blank lines and CRLF line ends', async () => {
    const auth = tokenFileAuthenticator(parseTokenFile('\r\n\r\nt1,u1,1\r\n\r\nt2,u2,2\r\n', 'f'));
    assert.equal((await auth.authenticateToken('t1')).kind, 'authenticated');
    assert.deepEqual(await auth.authenticateToken('t2'), authenticated({ username: 'u2', uid: '2', groups: [], extra: {} }));
  });

  it('refuses a record with fewer than 3 columns, naming the line and not the token', () => {
    assert.throws(() => parseTokenFile('ok,user,1\nsecret-token,user-only\n', 'tokens.csv'), (e: Error) => /at least 3 columns.*found 2 at line 2/.test(e.message) && !e.message.includes('secret-token'));
  });

  it('has no comments: a # line is a record like any other', () => {
    assert.throws(() => parseTokenFile('# a comment\nt,u,1\n', 'f'), /found 1 at line 1/);
    const parsed = parseTokenFile('#t,u,1\n', 'f');
    assert.equal(parsed.usersByTokenHash.size, 1);
  });

  it('skips an empty token with a warning', async () => {
    const parsed = parseTokenFile(',nobody,0\nt,u,1\n', 'f');
    assert.deepEqual(parsed.warnings, [{ line: 1, message: 'empty token' }]);
    assert.deepEqual(await tokenFileAuthenticator(parsed).authenticateToken(''), noOpinion);
  });

  it('lets the later of duplicate tokens win, with a warning', async () => {
    const parsed = parseTokenFile('t,first,1\nt,second,2\n', 'f');
    assert.deepEqual(parsed.warnings, [{ line: 2, message: 'duplicate token' }]);
    const outcome = await tokenFileAuthenticator(parsed).authenticateToken('t');
    assert.equal(outcome.kind === 'authenticated' ? outcome.user.username : '', 'second');
  });

  it('keeps no token in memory: users are filed by digest', () => {
    const parsed = parseTokenFile('very-secret-token,u,1\n', 'f');
    assert.equal([...parsed.usersByTokenHash.keys()].some((k) => k.includes('very-secret-token')), false);
  });
});

describe('CSV as Go reads it', () => {
  it('reads quoted fields with escaped quotes, commas and newlines', () => {
    assert.deepEqual(parseCsv('a,"b ""q"", c","multi\nline"\n'), [{ line: 1, fields: ['a', 'b "q", c', 'multi\nline'] }]);
  });

  it('keeps spaces (no trimming) and empty fields', () => {
    assert.deepEqual(parseCsv(' a , b ,,\n'), [{ line: 1, fields: [' a ', ' b ', '', ''] }]);
  });

  it('counts lines across quoted newlines', () => {
    assert.deepEqual(parseCsv('"x\ny",1\nz,2').map((r) => r.line), [1, 3]);
  });

  it('refuses a bare quote in an unquoted field', () => {
    assert.throws(() => parseCsv('ab"c,d\n'), CsvSyntaxError);
  });

  it('refuses text after a closing quote and an unterminated quote', () => {
    assert.throws(() => parseCsv('"ab"c,d\n'), CsvSyntaxError);
    assert.throws(() => parseCsv('"abc,d\n'), CsvSyntaxError);
  });
});
