/**
 * The one place maintenance refusals become Status objects (docs/operations.md): a follower's 503,
 * a bad body's 422 Invalid with its fields (as kube-apiserver's validation answers), unknown members' 404, refused changes' 409.
 */
import { StatusError, type StatusCause } from '../../registry/errors/status-error.ts';
import { MaintenanceError, type MaintenanceErrorCode } from './backend.ts';

/** Seconds a client waits before asking again when the group is busy or has no leader. */
const retryAfterSeconds = 1;

/** 503: this replica does not lead; the message names the one that does, for the client to retry there. */
export function notLeader(self: string, leader: string | null): StatusError {
  const where = leader === null || leader === self ? 'no leader is known now' : `the leader is ${leader}`;
  return new StatusError(503, 'ServiceUnavailable', `this replica (${self}) is not the leader; ${where}`, { retryAfterSeconds });
}

/** 422 Invalid: a request body that says the wrong thing; each cause names its field. */
export function invalidBody(what: string, causes: readonly StatusCause[]): StatusError {
  const summary = causes.map((c) => `${c.field ?? ''}: ${c.message}`).join(', ');
  return new StatusError(422, 'Invalid', `${what} is invalid: ${summary}`, { causes });
}

/** 404: no member of that name. */
export function memberNotFound(name: string): StatusError {
  return new StatusError(404, 'NotFound', `member "${name}" not found`, { name, kind: 'members' });
}

/** The HTTP code and reason of each refusal; NotLeader and NotMember have their own builders. */
const statusByCode: Readonly<Record<Exclude<MaintenanceErrorCode, 'NotLeader' | 'NotMember'>, readonly [number, string]>> = {
  AlreadyMember: [409, 'AlreadyExists'],
  NotLearner: [400, 'BadRequest'],
  NotVoter: [400, 'BadRequest'],
  LearnerBehind: [409, 'Conflict'],
  LastVoter: [409, 'Conflict'],
  ConfChangePending: [409, 'Conflict'],
  Timeout: [504, 'Timeout'],
  Unavailable: [503, 'ServiceUnavailable'],
};

/**
 * The Status of a backend refusal: `name` is the member the call was about (for 404), `self` this
 * replica (for 503). Anything that is no MaintenanceError is returned as it is (a bug: a 500).
 */
export function statusOfRefusal(err: unknown, context: { readonly self: string; readonly name?: string }): unknown {
  if (!(err instanceof MaintenanceError)) return err;
  if (err.code === 'NotLeader') return notLeader(context.self, err.leader ?? null);
  if (err.code === 'NotMember') return memberNotFound(context.name ?? '');
  const [code, reason] = statusByCode[err.code];
  const transient = err.code === 'ConfChangePending' || err.code === 'Unavailable';
  return new StatusError(code, reason, err.message, transient ? { retryAfterSeconds } : undefined);
}
