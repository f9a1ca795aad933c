import { StatusError } from '../../registry/errors/status-error.ts';

/** 405 for a verb the target does not support. */
export function methodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

/** 404 for a path that names no resource. */
export function pathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource');
}
