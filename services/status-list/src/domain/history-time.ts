/**
 * The `time` of a history request (draft-ietf-oauth-status-list, Historical Resolution):
 * a unix timestamp, whole seconds since the epoch written in decimal digits. Anything
 * else (a sign, a fraction, an exponent, an empty value, more than 2^53 − 1) is not one.
 */
export function parseHistoryTime(value: string): number | undefined {
  if (!/^[0-9]{1,16}$/.test(value)) return undefined;
  const time = Number(value);
  return Number.isSafeInteger(time) ? time : undefined;
}

/** Whether a token issued at `iat` and expiring at `exp` (when it does) was valid at `time`. */
export function validAt(token: { iat: number; exp: number | null }, time: number): boolean {
  return token.iat <= time && (token.exp === null || token.exp > time);
}
