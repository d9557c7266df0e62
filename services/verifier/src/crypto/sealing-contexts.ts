import type { KeyType } from './signing-key.js';

// What each sealed value is bound to (AES-GCM additional authenticated data,
// `KeyEncryptionKey.seal`): a value copied to another row does not open.

/** An organisation's request-signing key of one type. */
export function signingKeyContext(orgId: string, keyType: KeyType): string {
  return `signing-key:${orgId}:${keyType}`;
}

/** A session's ephemeral ECDH-ES decryption key. */
export function sessionKeyContext(sessionId: string): string {
  return `session-encryption-key:${sessionId}`;
}

/** The generated platform CA's private key (platform setting `platform-ca`). */
export const PLATFORM_CA_CONTEXT = 'platform-ca';

/** The known value that proves KEY_ENCRYPTION_KEY opens this database (platform setting `key-check`). */
export const KEY_CHECK_CONTEXT = 'key-check';

/** A webhook's signing secret (`whsec_…`), bound to the webhook's id. */
export function webhookSecretContext(webhookId: string): string {
  return `webhook-secret:${webhookId}`;
}
