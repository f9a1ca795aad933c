// What the service-account token authenticator asks a claims validator (legacy or bound).
import type { ServiceAccountInfo } from './names.ts';

/** The outcome of validating a signed token's claims; `reason` goes to the log only. */
export type ClaimsValidation = { readonly ok: true; readonly info: ServiceAccountInfo } | { readonly ok: false; readonly reason: string };

/** Validates the claims of a token whose signature and issuer are already verified. */
export interface ClaimsValidator {
  validate(claims: Readonly<Record<string, unknown>>, token: string): Promise<ClaimsValidation>;
}

/** A refusal. */
export function refuse(reason: string): ClaimsValidation {
  return { ok: false, reason };
}
