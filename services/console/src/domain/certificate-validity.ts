/** Within this of its end, a certificate is flagged: a month to renew or replace it. */
export const EXPIRY_WARNING_MS = 30 * 24 * 3600 * 1000;

export type ValidityState = 'valid' | 'expires-soon' | 'expired' | 'not-yet-valid';

/** Where a certificate stands now, for the warnings beside trust anchors, signing certificates and registry entries. */
export function validityOf(notAfter: string | undefined, now: Date, notBefore?: string): ValidityState {
  const at = now.getTime();
  if (notBefore && Date.parse(notBefore) > at) return 'not-yet-valid';
  if (!notAfter) return 'valid';
  const end = Date.parse(notAfter);
  if (end <= at) return 'expired';
  return end - at <= EXPIRY_WARNING_MS ? 'expires-soon' : 'valid';
}
