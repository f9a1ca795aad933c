// What a request to a deprecated API version is told, as kube-apiserver's deprecation package
// words it (endpoints/deprecation WarningMessage): `<group/version> <Kind> is deprecated in vX.Y+`,
// then `, unavailable in vX.Y+` when its removal is known and `; use <group/version> <Kind>` when
// a replacement is named. A custom version's CRD gives its own text.
import type { ServedResource } from '../registry/served-resource.ts';

/** The Warning a request to `served` carries, or undefined when it is not deprecated. */
export function deprecationWarningOf(served: ServedResource): string | undefined {
  const { deprecatedSince, removedIn, replacement, deprecationWarning, kind } = served.decl;
  if (deprecatedSince === undefined) return deprecationWarning;
  let message = `${served.apiVersion} ${kind} is deprecated in v${deprecatedSince}+`;
  if (removedIn !== undefined) message += `, unavailable in v${removedIn}+`;
  if (replacement !== undefined) message += `; use ${served.group === '' ? '' : `${served.group}/`}${replacement.version} ${replacement.kind}`;
  return message;
}

/** Whether requests to `served` count in apiserver_requested_deprecated_apis, and the release its label names ('' when unknown). */
export function deprecatedApiRelease(served: ServedResource): string | undefined {
  const { deprecatedSince, deprecationWarning, removedIn } = served.decl;
  return deprecatedSince !== undefined || deprecationWarning !== undefined ? removedIn ?? '' : undefined;
}
