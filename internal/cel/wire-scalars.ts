// Timestamps and durations from their JSON forms, made by the engine's own parsers (they can only
// build the protobuf well-known types inside an evaluation, so each is a tiny planned program).
import { celEnv, isCelError, parse, plan, type CelValue } from '@bufbuild/cel';

const baseEnv = celEnv();
const toTimestamp = plan(baseEnv, parse('timestamp(s)'));
const toDuration = plan(baseEnv, parse('duration(s)'));

/** A CEL timestamp from an RFC 3339 date-time or a full date (`2006-01-02`, read as midnight UTC); undefined when malformed. */
export function timestampFromJson(text: string): CelValue | undefined {
  const full = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
  const value = toTimestamp({ s: full });
  return isCelError(value) ? undefined : value;
}

/** A CEL duration from a Go duration string (`1h30m`); undefined when malformed. */
export function durationFromJson(text: string): CelValue | undefined {
  const value = toDuration({ s: text });
  return isCelError(value) ? undefined : value;
}
