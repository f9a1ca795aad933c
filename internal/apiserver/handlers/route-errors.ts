import { StatusError } from '../../registry/errors/status-error.ts';
import { removalText, removedKindAt, removedKindsOf } from '../../registry/removed-versions.ts';

/** 405 for a verb the target does not support. */
export function methodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

const notFoundMessage = 'the server could not find the requested resource';

/** 404 for a path that names no resource, as kube's (empty `details` included). */
export function pathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', notFoundMessage, {});
}

/**
 * 404 for a resource path no served resource has: kube's NotFound, whose message also names the
 * replacement when the path is under a version kube no longer serves (`...; batch/v1beta1 CronJob
 * was removed in v1.25, use batch/v1 CronJob`). Only reached when nothing (a custom resource
 * included) serves the path.
 */
export function resourceNotFound(apiDomain: string, at: { readonly group: string; readonly version: string; readonly resource: string }): StatusError {
  const removed = removedKindAt(apiDomain, at.group, at.version, at.resource);
  return removed === undefined ? pathNotFound() : new StatusError(404, 'NotFound', `${notFoundMessage}; ${removalText(removed, apiDomain)}`, {});
}

/** 404 for the discovery document of a group version not served; one kube no longer serves names what replaced its kinds. */
export function groupVersionNotFound(apiDomain: string, group: string, version: string): StatusError {
  const removed = removedKindsOf(apiDomain, group, version);
  return removed.length === 0 ? pathNotFound() : new StatusError(404, 'NotFound', `${notFoundMessage}; ${removed.map((r) => removalText(r, apiDomain)).join('; ')}`, {});
}
