import { readFileSync } from 'node:fs';
import { ensurePlatformSetting } from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { generatePlatformCa, loadPlatformCa, type PlatformCa } from '../crypto/platform-ca.js';
import type { VerifierConfig } from '../config.js';

const PLATFORM_CA = 'platform-ca';

type CaConfig = Pick<VerifierConfig, 'PLATFORM_CA_CERT_PEM' | 'PLATFORM_CA_CERT_PEM_FILE' | 'PLATFORM_CA_KEY_PEM' | 'PLATFORM_CA_KEY_PEM_FILE'>;

export interface EnsurePlatformCaOptions {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
  config: CaConfig;
  now: Date;
}

/**
 * The platform CA in force: the configured one (PEM inline or in files), else
 * the one generated at first start and stored with its key sealed. Concurrent
 * first starts agree on one CA (insert on conflict, then read back).
 */
export async function ensurePlatformCa(options: EnsurePlatformCaOptions): Promise<PlatformCa> {
  const configured = configuredPem(options.config);
  if (configured) return loadPlatformCa(configured, options.now);
  const { keyEncryptionKey } = options;
  const stored = await ensurePlatformSetting(options.db, PLATFORM_CA, async () => {
    const generated = await generatePlatformCa({ now: options.now });
    return { certificatePem: generated.certificatePem, sealedPrivateKey: keyEncryptionKey.seal(generated.privateKeyPem, PLATFORM_CA) };
  });
  const privateKeyPem = keyEncryptionKey.open(stored.sealedPrivateKey ?? '', PLATFORM_CA);
  return loadPlatformCa({ certificatePem: stored.certificatePem ?? '', privateKeyPem }, options.now);
}

function configuredPem(config: CaConfig): { certificatePem: string; privateKeyPem: string } | undefined {
  const certificatePem = config.PLATFORM_CA_CERT_PEM ?? (config.PLATFORM_CA_CERT_PEM_FILE ? readFileSync(config.PLATFORM_CA_CERT_PEM_FILE, 'utf8') : undefined);
  const privateKeyPem = config.PLATFORM_CA_KEY_PEM ?? (config.PLATFORM_CA_KEY_PEM_FILE ? readFileSync(config.PLATFORM_CA_KEY_PEM_FILE, 'utf8') : undefined);
  // Env vars often carry PEM with escaped newlines.
  const unescape = (pem: string) => pem.replace(/\\n/g, '\n');
  return certificatePem && privateKeyPem ? { certificatePem: unescape(certificatePem), privateKeyPem: unescape(privateKeyPem) } : undefined;
}
