import { errors as joseErrors, type JWTPayload } from 'jose';

/** What an access token's claims must satisfy (the options `createTokenVerifier` gives `jwtVerify`). */
export interface AccessTokenClaimRules {
  issuer: string;
  audience: string;
  clockToleranceSeconds: number;
  requiredClaims: readonly string[];
}

/**
 * The claim checks jose's `jwtVerify` makes with these rules, in its order and with
 * its errors (so the caller's 401 message is the same): required claims present,
 * `iss` equal, `aud` containing the audience, `iat` a number if present, `nbf` not after now + tolerance, `exp`
 * after now − tolerance, times as whole seconds of `now`. For a token whose signature
 * was verified before (the verified-token cache), checked again on every use: only the
 * time-bound claims can have changed, the rest is checked as cheaply.
 */
export function checkAccessTokenClaims(payload: JWTPayload, rules: AccessTokenClaimRules, now: Date): void {
  for (const claim of new Set([...rules.requiredClaims, 'aud', 'iss'].reverse()))
    if (!Object.hasOwn(payload, claim))
      throw new joseErrors.JWTClaimValidationFailed(`missing required "${claim}" claim`, payload, claim, 'missing');
  if (payload.iss !== rules.issuer) throw unexpected(payload, 'iss');
  const { aud } = payload;
  if (!(typeof aud === 'string' ? aud === rules.audience : Array.isArray(aud) && aud.includes(rules.audience)))
    throw unexpected(payload, 'aud');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  numericDate(payload, 'iat');
  const nbf = numericDate(payload, 'nbf');
  if (nbf !== undefined && nbf > nowSeconds + rules.clockToleranceSeconds)
    throw new joseErrors.JWTClaimValidationFailed('"nbf" claim timestamp check failed', payload, 'nbf', 'check_failed');
  const exp = numericDate(payload, 'exp');
  if (exp !== undefined && exp <= nowSeconds - rules.clockToleranceSeconds)
    throw new joseErrors.JWTExpired('"exp" claim timestamp check failed', payload, 'exp', 'check_failed');
}

function unexpected(payload: JWTPayload, claim: string): Error {
  return new joseErrors.JWTClaimValidationFailed(`unexpected "${claim}" claim value`, payload, claim, 'check_failed');
}

function numericDate(payload: JWTPayload, claim: 'iat' | 'nbf' | 'exp'): number | undefined {
  const value = payload[claim];
  if (value === undefined) return undefined;
  if (typeof value !== 'number')
    throw new joseErrors.JWTClaimValidationFailed(`"${claim}" claim must be a number`, payload, claim, 'invalid');
  return value;
}
