import type { KeyObject } from 'node:crypto';
import type { StatusListFormat } from '@tessera/contracts';
import type { FindIssuerKeyResult } from './issuer-key.js';

/** A Status List Token as fetched: its form (from the response's Content-Type) and its bytes. */
export interface StatusListTokenBytes {
  format: StatusListFormat;
  bytes: Uint8Array;
}

/**
 * A Status List Token of either form, opened by its form's reader
 * (`status-list-jwt.ts`, `status-list-cwt.ts`) and not yet judged: what
 * `verify-status-list-token.ts` checks the draft's Validation Rules on, once for both forms.
 */
export interface OpenedStatusListToken {
  format: StatusListFormat;
  /** The `typ` the token carries, and the one its form requires. */
  typ: unknown;
  expectedTyp: string;
  /** The claims the rules read, by their meaning (JWT names, CWT keys 2, 6, 4, 65534, 65533). */
  claims: { sub: unknown; iat: unknown; exp: unknown; ttl: unknown; statusList: unknown };
  /** How `lst` is carried: base64url text (JWT) or a byte string (CWT). */
  lstEncoding: 'base64url' | 'bytes';
  /** The key the token's headers name: an x5c/x5chain leaf, or a DID. */
  signer: FindIssuerKeyResult;
  /** Throws with a sentence when the token's signature does not verify with `key`. */
  verifySignature(key: KeyObject): Promise<void>;
}
