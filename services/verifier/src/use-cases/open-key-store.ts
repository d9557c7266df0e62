import { type Clock, StartupError } from '@tessera/service-kit';
import { KeyDecryptionError, type KeyEncryptionKey } from '../crypto/key-encryption.js';
import { hasMultiValuedRdn } from '../crypto/certificate-names.js';
import {
  generatePlatformCa,
  loadPlatformCa,
  reissuePlatformCaCertificate,
  type PlatformCa,
  type PlatformCaPem,
} from '../crypto/platform-ca.js';
import { KEY_CHECK_CONTEXT, PLATFORM_CA_CONTEXT } from '../crypto/sealing-contexts.js';
import { ensurePlatformSetting, findPlatformSetting, replacePlatformSetting } from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';

// A start step (server.ts, before the app serves): the key store is usable.

const KEY_CHECK_PLAINTEXT = 'tessera verifier key check v1';

/** KEY_ENCRYPTION_KEY is not the key this database's secrets were sealed with. */
export class KeyEncryptionKeyMismatchError extends StartupError {
  constructor(options?: { cause?: unknown }) {
    super(
      'KEY_ENCRYPTION_KEY does not match the key this database was set up with: private keys stored here cannot be decrypted. Start with the original key (or restore it), or, after a rotation, give the key it replaced in KEY_ENCRYPTION_KEY_PREVIOUS; no new keys were created.',
      options,
    );
    this.name = 'KeyEncryptionKeyMismatchError';
  }
}

export interface OpenKeyStoreDeps {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
  clock: Clock;
}

export interface OpenKeyStoreInput {
  /** The CA given in configuration (PLATFORM_CA_*, read by `platformCaPemOf`); absent: the generated one. */
  configured?: PlatformCaPem;
}

/**
 * Verifies the KEY_ENCRYPTION_KEY opens this database's secrets (else
 * KeyEncryptionKeyMismatchError, nothing created) and loads or creates the
 * platform CA: the configured one (PEM inline or in files, used as given), else
 * the one generated at first start and stored with its key sealed — re-issued
 * with the same key when it still has the old multi-valued RDN name. Re-sealing
 * after a KEY_ENCRYPTION_KEY rotation is `resealSealedValues`' (run before this by
 * server.ts, so the CA key it opens is already under the current key).
 */
export async function openKeyStore(deps: OpenKeyStoreDeps, input: OpenKeyStoreInput = {}): Promise<PlatformCa> {
  const now = deps.clock();
  await verifyKeyEncryptionKey(deps);
  if (input.configured) return loadPlatformCa(input.configured, now);
  // Concurrent first starts agree on one CA (insert on conflict, then read back).
  const stored = await ensurePlatformSetting(deps.db, PLATFORM_CA_CONTEXT, async () => {
    const generated = await generatePlatformCa({ now });
    return {
      certificatePem: generated.certificatePem,
      sealedPrivateKey: deps.keyEncryptionKey.seal(generated.privateKeyPem, PLATFORM_CA_CONTEXT),
    };
  });
  const privateKeyPem = deps.keyEncryptionKey.open(stored.sealedPrivateKey ?? '', PLATFORM_CA_CONTEXT);
  const ca = await loadPlatformCa({ certificatePem: stored.certificatePem ?? '', privateKeyPem }, now);
  if (!hasMultiValuedRdn(ca.certificate.subjectName)) return ca;
  // Generated before names had one attribute per RDN (strict parsers refuse the old
  // multi-valued one): re-issued with the same key. The conditional update lets one of
  // several replicas starting together replace it; all then load what is stored. Leaves
  // signed under the old certificate are re-issued after this (`reissuePlatformLeaves`).
  const certificatePem = await reissuePlatformCaCertificate(ca, now);
  await replacePlatformSetting(deps.db, {
    name: PLATFORM_CA_CONTEXT,
    expected: stored,
    value: { ...stored, certificatePem },
  });
  const current = await findPlatformSetting(deps.db, PLATFORM_CA_CONTEXT);
  return loadPlatformCa({ certificatePem: current?.certificatePem ?? certificatePem, privateKeyPem }, now);
}

/**
 * Seals a known value on first start, and on every later start checks a
 * configured key (KEY_ENCRYPTION_KEY or a previous one) opens it. A wrong key
 * stops the service instead of silently generating new keys that would orphan
 * the stored ones. Also a start step of its own (server.ts, before re-sealing).
 */
export async function verifyKeyEncryptionKey(deps: Omit<OpenKeyStoreDeps, 'clock'>): Promise<void> {
  const { keyEncryptionKey } = deps;
  const stored = await ensurePlatformSetting(deps.db, KEY_CHECK_CONTEXT, () => ({
    sealed: keyEncryptionKey.seal(KEY_CHECK_PLAINTEXT, KEY_CHECK_CONTEXT),
  }));
  try {
    // Opened with a previous key (KEY_ENCRYPTION_KEY_PREVIOUS): `resealSealedValues` moves it onto the current one.
    if (keyEncryptionKey.open(stored.sealed ?? '', KEY_CHECK_CONTEXT) === KEY_CHECK_PLAINTEXT) return;
  } catch (error) {
    if (error instanceof KeyDecryptionError) throw new KeyEncryptionKeyMismatchError({ cause: error });
    throw error;
  }
  throw new KeyEncryptionKeyMismatchError();
}
