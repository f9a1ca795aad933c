// The parts of a URL as Go's net/url.Parse splits them, and the errors it gives: kube validates
// webhook URLs on that split (a URL WHATWG parsing accepts can fail in Go, and the reverse).

/** A URL split as Go's url.URL holds it; `user` is Userinfo.String(), undefined when absent. */
export interface GoUrl {
  readonly scheme: string;
  readonly host: string;
  readonly user: string | undefined;
  readonly path: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

function parseError(raw: string, why: string): Error {
  return new Error(`parse ${JSON.stringify(raw)}: ${why}`);
}

/** Splits the scheme off as Go's getScheme: a letter, then letters, digits, `+`, `-`, `.`. */
function splitScheme(raw: string, text: string): [string, string] {
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return ['', text];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw parseError(raw, 'missing protocol scheme');
      return [text.slice(0, i).toLowerCase(), text.slice(i + 1)];
    }
    return ['', text];
  }
  return ['', text];
}

/** Checks a host[:port] as Go's parseHost does for the common cases (port digits, host characters). */
function checkHost(raw: string, host: string): void {
  const colon = host.startsWith('[') ? host.indexOf(':', host.indexOf(']')) : host.lastIndexOf(':');
  if (colon >= 0) {
    const port = host.slice(colon);
    if (!/^:\d*$/.test(port)) throw parseError(raw, `invalid port ${JSON.stringify(port)} after host`);
  }
  const bad = /[^A-Za-z0-9\-._~!$&'()*+,;=:[\]%]/.exec(host);
  if (bad !== null) throw parseError(raw, `invalid character ${JSON.stringify(bad[0])} in host name`);
}

/** Parses `raw` as Go's url.Parse does; throws its error text (`parse "x": ...`). */
export function parseGoUrl(raw: string): GoUrl {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) throw parseError(raw, 'net/url: invalid control character in URL');
  const hash = raw.indexOf('#');
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  const [scheme, afterScheme] = splitScheme(raw, hash < 0 ? raw : raw.slice(0, hash));
  const question = afterScheme.indexOf('?');
  const rawQuery = question < 0 ? '' : afterScheme.slice(question + 1);
  let rest = question < 0 ? afterScheme : afterScheme.slice(0, question);
  if (!rest.startsWith('/')) {
    // An opaque URL (`https:host`) has no host; a relative one may not put a colon first.
    if (scheme === '' && (rest.split('/')[0] ?? '').includes(':')) throw parseError(raw, 'first path segment in URL cannot contain colon');
    return { scheme, host: '', user: undefined, path: scheme === '' ? rest : '', rawQuery, fragment };
  }
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) user = authority.slice(0, at);
    host = at >= 0 ? authority.slice(at + 1) : authority;
    checkHost(raw, host);
  }
  return { scheme, host, user, path: rest, rawQuery, fragment };
}
