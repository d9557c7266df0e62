import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The Response Code of same-device flows (OpenID4VP 1.0 §8.2, Security
// Considerations "Session Fixation"): a fresh random value the wallet's redirect
// carries to the relying party, which presents it when it reads the result.

/** 256 random bits, base64url (43 characters): well over the 128 bits asked for. */
export function generateResponseCode(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored: SHA-256 of the code, base64url. The code itself is never stored, so a database reader cannot replay it. */
export function hashResponseCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('base64url');
}

/** Whether `code` is the one whose hash is stored, compared in constant time. */
export function responseCodeMatches(code: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashResponseCode(code), 'base64url');
  const stored = Buffer.from(storedHash, 'base64url');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
