// Go's net/url parser, as far as Kubernetes' URL library uses it: ParseRequestURI (which
// decides isURL and rejects what url() rejects) and Parse (which gives url()'s parts), with
// Go's error texts ('parse "x": invalid URI for request'). Strings are handled as UTF-8 bytes
// where Go does (escaping); Go's newer IPv6 literal checks are not applied (kube 1.28 era).

/** A URL's parts as Go's url.URL keeps them. */
export interface GoUrl {
  readonly scheme: string;
  readonly opaque: string;
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly rawQuery: string;
}

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

class UrlError extends Error {}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

function shouldEscape(c: number, mode: Mode): boolean {
  const ch = String.fromCharCode(c);
  if (/^[A-Za-z0-9]$/.test(ch)) return false;
  if ((mode === 'host' || mode === 'zone') && "!$&'()*+,;=:[]<>\"".includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'path':
        return ch === '?';
      case 'userPassword':
        return ch === '@' || ch === '/' || ch === '?' || ch === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && "!()*".includes(ch)) return false;
  return true;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Go's url.unescape: %XX decoding with its errors; '+' is a space in query components. */
export function unescape(s: string, mode: Mode): string {
  const bytes = utf8.encode(s);
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === '%') {
      if (i + 2 >= s.length + 0 || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw new UrlError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      }
      if (mode === 'host' && parseInt(s[i + 1] ?? '0', 16) < 8 && s.slice(i, i + 3) !== '%25') {
        throw new UrlError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      }
      i += 3;
      continue;
    }
    const code = s.charCodeAt(i);
    if ((mode === 'host' || mode === 'zone') && code < 0x80 && shouldEscape(code, mode)) {
      throw new UrlError(`invalid character ${JSON.stringify(s[i])} in host name`);
    }
    i++;
  }
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0x25) {
      out.push(parseInt(String.fromCharCode(bytes[i + 1] as number, bytes[i + 2] as number), 16));
      i += 2;
    } else if (b === 0x2b && mode === 'queryComponent') {
      out.push(0x20);
    } else {
      out.push(b);
    }
  }
  return utf8Decoder.decode(new Uint8Array(out));
}

/** Go's url.escape for a mode: unsafe bytes as %XX (upper-case hex). */
export function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of utf8.encode(s)) {
    out += shouldEscape(b, mode) ? `%${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b);
  }
  return out;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (shouldEscape(s.charCodeAt(i), mode)) return false;
  }
  return true;
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${JSON.stringify(colonPort)} after host`);
    const zone = host.slice(0, close).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, close), 'zone') + unescape(host.slice(close), 'host');
    }
  } else {
    const colon = host.lastIndexOf(':');
    if (colon !== -1 && !validOptionalPort(host.slice(colon))) {
      throw new UrlError(`invalid port ${JSON.stringify(host.slice(colon))} after host`);
    }
  }
  return unescape(host, 'host');
}

function parseAuthority(authority: string): string {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return host;
  const userinfo = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) throw new UrlError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  unescape(colon < 0 ? userinfo : userinfo.slice(0, colon), 'userPassword');
  if (colon >= 0) unescape(userinfo.slice(colon + 1), 'userPassword');
  return host;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function hasControlByte(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function parse(raw: string, viaRequest: boolean): GoUrl {
  if (hasControlByte(raw)) throw new UrlError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new UrlError('empty url');
  const url = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '' };
  if (raw === '*') return { ...url, path: '*' };
  const [scheme, afterScheme] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  let rest = afterScheme;
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const question = rest.indexOf('?');
    if (question >= 0) {
      url.rawQuery = rest.slice(question + 1);
      rest = rest.slice(0, question);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    if (viaRequest) throw new UrlError('invalid URI for request');
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) throw new UrlError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    url.host = parseAuthority(authority);
  }
  url.path = unescape(rest, 'path');
  url.rawPath = escape(url.path, 'path') === rest ? '' : rest;
  return url;
}

function wrap<T>(raw: string, parser: () => T): T {
  try {
    return parser();
  } catch (error) {
    if (error instanceof UrlError) throw new Error(`parse ${JSON.stringify(raw)}: ${error.message}`);
    throw error;
  }
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path; no fragment split. */
export function parseRequestUri(raw: string): GoUrl {
  return wrap(raw, () => parse(raw, true));
}

/** Go's url.Parse: the fragment is cut off (and checked), then the rest parsed leniently. */
export function parseUrl(raw: string): GoUrl {
  return wrap(raw, () => {
    const hash = raw.indexOf('#');
    const url = parse(hash < 0 ? raw : raw.slice(0, hash), false);
    if (hash >= 0) unescape(raw.slice(hash + 1), 'fragment');
    return url;
  });
}

/** Go's URL.EscapedPath. */
export function escapedPath(url: GoUrl): string {
  if (url.rawPath !== '' && validEncoded(url.rawPath, 'path')) {
    try {
      if (unescape(url.rawPath, 'path') === url.path) return url.rawPath;
    } catch {
      // fall through to escaping the path
    }
  }
  if (url.path === '*') return '*';
  return escape(url.path, 'path');
}

/** Go's URL.Hostname and URL.Port: the host split at a valid port, IPv6 brackets removed. */
export function splitHostPort(hostPort: string): { hostname: string; port: string } {
  let hostname = hostPort;
  let port = '';
  const colon = hostname.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(hostname.slice(colon))) {
    port = hostname.slice(colon + 1);
    hostname = hostname.slice(0, colon);
  }
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  return { hostname, port };
}

/** Go's url.ParseQuery, dropping pairs it rejects (URL.Query ignores the error). */
export function parseQuery(rawQuery: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const equals = pair.indexOf('=');
    const rawKey = equals < 0 ? pair : pair.slice(0, equals);
    const rawValue = equals < 0 ? '' : pair.slice(equals + 1);
    let key: string;
    let value: string;
    try {
      key = unescape(rawKey, 'queryComponent');
      value = unescape(rawValue, 'queryComponent');
    } catch {
      continue;
    }
    const list = values.get(key) ?? [];
    list.push(value);
    values.set(key, list);
  }
  return values;
}
