// Kubernetes' URL library (k8s.io/apiserver/pkg/cel/library/urls.go): isURL(s) and url(s)
// accept what Go's url.ParseRequestURI accepts (an absolute URI or an absolute path); the URL
// value keeps its text and its parts are read as Go's url.Parse gives them.
import { celFunc, celMethod, celError, CelScalar, mapType, listType, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { escapedPath, parseQuery, parseRequestUri, parseUrl, splitHostPort, type GoUrl } from './go-url.ts';
import { descriptors, libraryTypes, opaqueValue, stringOf } from './types.ts';

function toUrl(text: string): ReflectMessage {
  try {
    parseRequestUri(text);
    parseUrl(text);
  } catch (error) {
    throw celError(`URL parse error during conversion from string: ${(error as Error).message}`);
  }
  return opaqueValue(descriptors.url, { url: text });
}

function isUrl(text: string): boolean {
  try {
    parseRequestUri(text);
    return true;
  } catch {
    return false;
  }
}

/** A URL value's parts (its text was checked when it was made). */
function partsOf(value: ReflectMessage): GoUrl {
  return parseUrl(stringOf(value, 'url'));
}

const url = libraryTypes.url;

/** The URL library's functions. */
export const urlsLibrary: readonly CelFunc[] = [
  celFunc('url', [CelScalar.STRING], url, toUrl),
  celFunc('isURL', [CelScalar.STRING], CelScalar.BOOL, isUrl),
  celMethod('getScheme', url, [], CelScalar.STRING, function () {
    return partsOf(this).scheme;
  }),
  celMethod('getHost', url, [], CelScalar.STRING, function () {
    return partsOf(this).host;
  }),
  celMethod('getHostname', url, [], CelScalar.STRING, function () {
    return splitHostPort(partsOf(this).host).hostname;
  }),
  celMethod('getPort', url, [], CelScalar.STRING, function () {
    return splitHostPort(partsOf(this).host).port;
  }),
  celMethod('getEscapedPath', url, [], CelScalar.STRING, function () {
    return escapedPath(partsOf(this));
  }),
  celMethod('getQuery', url, [], mapType(CelScalar.STRING, listType(CelScalar.STRING)), function () {
    return parseQuery(partsOf(this).rawQuery);
  }),
];
