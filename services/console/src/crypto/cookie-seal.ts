import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Values the console hands the browser to keep and give back unchanged: the session
 * (tokens, expiry), a pending sign-in, a one-page flash. Sealed with AES-256-GCM under
 * a key derived from SESSION_SECRET (HKDF-SHA256), so the browser can neither read nor
 * change them, and any replica with the same secret can open them. `purpose` (the
 * cookie's name) is the associated data: a value sealed for one cookie does not open
 * as another.
 *
 * Layout, base64url: version (1 byte) ‖ IV (12 random bytes) ‖ ciphertext ‖ tag (16).
 * The plaintext is the value's JSON, deflated (tokens are long; a cookie holds 4 KB).
 */
export interface CookieSeal {
  seal(purpose: string, value: unknown): string;
  /** The value, or undefined when the text was not sealed by this key for this purpose (tampered, truncated, another secret). */
  open(purpose: string, sealed: string): unknown;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A sealed value opens to at most this much JSON: a forged deflate stream cannot blow up (a valid one is far smaller). */
const MAX_PLAINTEXT_BYTES = 64 * 1024;

export function createCookieSeal(secret: string): CookieSeal {
  const key = Buffer.from(hkdfSync('sha256', secret, 'tessera-console', 'cookie-seal/aes-256-gcm/v1', 32));
  return {
    seal(purpose, value) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const ciphertext = Buffer.concat([cipher.update(deflateRawSync(JSON.stringify(value))), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, ciphertext, cipher.getAuthTag()]).toString('base64url');
    },
    open(purpose, sealed) {
      if (!/^[A-Za-z0-9_-]+$/.test(sealed)) return undefined;
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const deflated = Buffer.concat([
          decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]);
        return JSON.parse(
          inflateRawSync(deflated, { maxOutputLength: MAX_PLAINTEXT_BYTES }).toString('utf8'),
        ) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
