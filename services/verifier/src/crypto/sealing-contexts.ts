import type { KeyType } from './signing-key.js';

// What each sealed value is bound to (AES-GCM additional authenticated data,
// `KeyEncryptionKey.seal`): a value copied to another row does not open.

/** An organisation's request-signing key of one type. */
export function signingKeyContext(orgId: string, keyType: KeyType): string {
  return `signing-key:${orgId}:${keyType}`;
}

/**
 * A key made for a certificate signing request, waiting for its chain (`pending_signing_keys`):
 * bound to its organisation, key type and key id. When the chain arrives the key is opened with
 * this context and sealed again as the organisation's signing key (`signingKeyContext`).
 */
export function pendingSigningKeyContext(orgId: string, keyType: KeyType, keyId: string): string {
  return `pending-signing-key:${orgId}:${keyType}:${keyId}`;
}

/** A session's ephemeral ECDH-ES decryption key. */
export function sessionKeyContext(sessionId: string): string {
  return `session-encryption-key:${sessionId}`;
}

/** A session's ISO/IEC 18013-7 Annex C HPKE recipient key (`org-iso-mdoc`), column `encrypted_annex_c_key`. */
export function annexCSessionKeyContext(sessionId: string): string {
  return `annex-c-session-key:${sessionId}`;
}

/** The generated platform CA's private key (platform setting `platform-ca`). */
export const PLATFORM_CA_CONTEXT = 'platform-ca';

/** The known value that proves KEY_ENCRYPTION_KEY opens this database (platform setting `key-check`). */
export const KEY_CHECK_CONTEXT = 'key-check';

/** A webhook's signing secret (`whsec_…`), bound to the webhook's id. */
export function webhookSecretContext(webhookId: string): string {
  return `webhook-secret:${webhookId}`;
}

/** An organisation's data key (crypto/data-key.ts), wrapped by KEY_ENCRYPTION_KEY. */
export function dataKeyContext(orgId: string): string {
  return `data-key:${orgId}`;
}

/** The sealed columns of `presentation_results`, by their SQL names. */
export type PresentationDataColumn = 'presentations' | 'credential_sets' | 'retained_presentations';

/**
 * A column of a stored presentation result, sealed with the organisation's data
 * key: bound to the session and the column, so ciphertexts cannot be swapped
 * between sessions, organisations or columns.
 */
export function presentationDataContext(orgId: string, sessionId: string, column: PresentationDataColumn): string {
  return `presentation-data:${orgId}:${sessionId}:${column}`;
}
