import type { Database } from '@tessera/service-kit';
import type { VerifierConfig } from './config.js';
import type { KeyEncryptionKey } from './crypto/key-encryption.js';
import type { PlatformCa } from './crypto/platform-ca.js';
import type { VerifierDbSchema } from './db/schema.js';
import { verifyKeyEncryptionKey } from './keys/key-check.js';
import { ensurePlatformCa } from './keys/platform-ca-store.js';

/**
 * What must hold before the app serves: the KEY_ENCRYPTION_KEY opens this
 * database's secrets (else KeyEncryptionKeyMismatchError), and the platform CA
 * is loaded or created.
 */
export async function prepareKeys(options: { config: VerifierConfig; database: Database<VerifierDbSchema>; keyEncryptionKey: KeyEncryptionKey; now?: Date }): Promise<PlatformCa> {
  await verifyKeyEncryptionKey({ db: options.database.db, keyEncryptionKey: options.keyEncryptionKey });
  return ensurePlatformCa({ db: options.database.db, keyEncryptionKey: options.keyEncryptionKey, config: options.config, now: options.now ?? new Date() });
}
