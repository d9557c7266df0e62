import type { Logger, MessageBus } from '@tessera/service-kit';
import type { KeyEncryptionKey } from './crypto/key-encryption.js';
import type { PlatformCa } from './crypto/platform-ca.js';
import type { VerifierConfig } from './config.js';
import type { VerifierDb } from './db/types.js';
import type { StatusListChecker } from './verification/status-list-checker.js';

/** What the service's use cases need, built once by `buildApp`. */
export interface VerifierContext {
  config: VerifierConfig;
  db: VerifierDb;
  bus: MessageBus;
  keyEncryptionKey: KeyEncryptionKey;
  ca: PlatformCa;
  logger: Logger;
  /** PUBLIC_BASE_URL without a trailing slash. */
  baseUrl: string;
  /** Host of PUBLIC_BASE_URL: SAN dNSName of platform leaves and the `x509_san_dns` client identifier. */
  host: string;
  /** The clock; tests pass their own. */
  now: () => Date;
  /** CA certificates (PEM) of TRUSTED_ISSUERS_FILE: trusted for every organisation. */
  trustedIssuers: string[];
  /** Status list look-ups, one per app so its token cache is shared by all verifications. */
  statusLists: StatusListChecker;
}
