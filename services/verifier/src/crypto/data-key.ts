import { randomBytes } from 'node:crypto';
import { openAesGcm, sealAesGcm } from './key-encryption.js';

// An organisation's data key: 32 random bytes that seal its presentation data
// (AES-256-GCM, same `v1.<iv>.<ciphertext+tag>` format as KEY_ENCRYPTION_KEY),
// itself stored wrapped by KEY_ENCRYPTION_KEY (`data_keys`). A database dump
// holds only ciphertext; opening it takes KEY_ENCRYPTION_KEY.

/** A sealed presentation column did not open: altered, moved from another row, or its data key is not the one it was sealed with. */
export class PresentationDataUnreadableError extends Error {
  constructor(context: string) {
    super(
      `could not open ${context}: the stored value was altered, belongs to another row, or was sealed with another data key`,
    );
    this.name = 'PresentationDataUnreadableError';
  }
}

export function generateDataKey(): Buffer {
  return randomBytes(32);
}

export function sealWithDataKey(dataKey: Buffer, plaintext: string, context: string): string {
  return sealAesGcm(dataKey, plaintext, context);
}

/** Throws PresentationDataUnreadableError, never returns garbage. */
export function openWithDataKey(dataKey: Buffer, sealed: string, context: string): string {
  const opened = openAesGcm(dataKey, sealed, context);
  if (!opened) throw new PresentationDataUnreadableError(context);
  return opened.toString('utf8');
}
