import { StorageError } from '../../storage/storage.ts';
import {
  alreadyExists,
  conflict,
  CONFLICT_MODIFIED,
  gone,
  internalError,
  StatusError,
  tooLargeResourceVersion,
  unavailable,
  type GroupResource,
} from '../errors/status-error.ts';

/**
 * The one place storage errors become API errors. Anything that is not a StorageError or a
 * StatusError is a bug and becomes a 500 without leaking its message.
 */
export function toStatusError(err: unknown, gr: GroupResource, name: string): StatusError {
  if (err instanceof StatusError) return err;
  if (!(err instanceof StorageError)) return internalError('unexpected error');
  switch (err.code) {
    case 'KeyNotFound':
      return new StatusError(404, 'NotFound', `${gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`} "${name}" not found`, { name, group: gr.group, kind: gr.resource });
    case 'KeyExists':
      return alreadyExists(gr, name);
    case 'Conflict':
      return conflict(gr, name, CONFLICT_MODIFIED);
    case 'Compacted':
      return gone(`The resourceVersion for the provided request is too old: ${err.message}`);
    case 'RevisionTooLarge':
      return tooLargeResourceVersion(err.message);
    case 'Indeterminate':
      // 504, never 503: clients take 503 to mean "not applied" and may repeat a create.
      return new StatusError(504, 'Timeout', `the write may or may not have been applied: ${err.message}`, { retryAfterSeconds: 1 });
    case 'Unavailable':
      return unavailable(`storage is unavailable: ${err.message}`);
    case 'WatcherTooSlow':
      return gone('the watch fell behind and was closed; watch again from the last resourceVersion');
    case 'ValueTooLarge':
      return new StatusError(413, 'RequestEntityTooLarge', 'Request entity too large: the object is too large to store');
  }
}
