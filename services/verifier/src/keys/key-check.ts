import { StartupError } from '@tessera/service-kit';
import { ensurePlatformSetting } from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';
import { KeyDecryptionError, type KeyEncryptionKey } from '../crypto/key-encryption.js';

const KEY_CHECK = 'key-check';
const KEY_CHECK_PLAINTEXT = 'tessera verifier key check v1';

/** KEY_ENCRYPTION_KEY is not the key this database's secrets were sealed with. */
export class KeyEncryptionKeyMismatchError extends StartupError {
  constructor(options?: { cause?: unknown }) {
    super(
      'KEY_ENCRYPTION_KEY does not match the key this database was set up with: private keys stored here cannot be decrypted. Start with the original key (or restore it); no new keys were created.',
      options,
    );
    this.name = 'KeyEncryptionKeyMismatchError';
  }
}

/**
 * At start: seals a known value on first start, and on every later start
 * checks the configured key opens it. A wrong key stops the service instead
 * of silently generating new keys that would orphan the stored ones.
 */
export async function verifyKeyEncryptionKey(options: { db: VerifierDb; keyEncryptionKey: KeyEncryptionKey }): Promise<void> {
  const { keyEncryptionKey } = options;
  const stored = await ensurePlatformSetting(options.db, KEY_CHECK, () => ({ sealed: keyEncryptionKey.seal(KEY_CHECK_PLAINTEXT, KEY_CHECK) }));
  try {
    if (keyEncryptionKey.open(stored.sealed ?? '', KEY_CHECK) === KEY_CHECK_PLAINTEXT) return;
  } catch (error) {
    if (error instanceof KeyDecryptionError) throw new KeyEncryptionKeyMismatchError({ cause: error });
    throw error;
  }
  throw new KeyEncryptionKeyMismatchError();
}
