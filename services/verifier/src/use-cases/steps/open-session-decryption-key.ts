import type { JWK } from 'jose';
import type { ResponseMode } from '@tessera/contracts';
import type { Logger } from '@tessera/service-kit';
import { KeyDecryptionError, type KeyEncryptionKey } from '../../crypto/key-encryption.js';
import { annexCSessionKeyContext, sessionKeyContext } from '../../crypto/sealing-contexts.js';
import type { SessionRow } from '../../db/schema.js';
import { isEncryptedMode } from '../../domain/response-mode.js';

// Shared step of the two answer use cases: the key encrypted answers are decrypted with.

export interface OpenSessionDecryptionKeyDeps {
  keyEncryptionKey: KeyEncryptionKey;
  logger: Logger;
}

/**
 * The session's ephemeral ECDH-ES private JWK (encrypted modes only). A sealed
 * key that does not open is a server fault (wrong KEY_ENCRYPTION_KEY or an
 * altered row), logged and thrown: never read as the wallet's mistake.
 */
export function openSessionDecryptionKey(deps: OpenSessionDecryptionKeyDeps, session: SessionRow): JWK | undefined {
  if (!isEncryptedMode(session.responseMode as ResponseMode) || !session.encryptedEncryptionKey) return undefined;
  return openSealedKey(deps, session, session.encryptedEncryptionKey, sessionKeyContext(session.id));
}

/**
 * The session's ISO/IEC 18013-7 Annex C HPKE recipient private JWK (`org-iso-mdoc`
 * offered and the session open), under the same rule: a sealed key that does not
 * open is a server fault.
 */
export function openAnnexCSessionKey(deps: OpenSessionDecryptionKeyDeps, session: SessionRow): JWK | undefined {
  if (!session.encryptedAnnexCKey) return undefined;
  return openSealedKey(deps, session, session.encryptedAnnexCKey, annexCSessionKeyContext(session.id));
}

function openSealedKey(deps: OpenSessionDecryptionKeyDeps, session: SessionRow, sealed: string, context: string): JWK {
  try {
    return JSON.parse(deps.keyEncryptionKey.open(sealed, context)) as JWK;
  } catch (error) {
    if (error instanceof KeyDecryptionError)
      deps.logger.error(
        { err: error, sessionId: session.id },
        'session encryption key cannot be decrypted: check KEY_ENCRYPTION_KEY',
      );
    throw error;
  }
}
