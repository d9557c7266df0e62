import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Format tag of sealed values, so a future key rotation can tell versions apart. */
const VERSION = 'v1';

/** Decryption failed: the KEY_ENCRYPTION_KEY is not the one the value was sealed with, or the value was altered. */
export class KeyDecryptionError extends Error {
  constructor(context: string, options?: { cause?: unknown }) {
    super(`could not decrypt ${context}: KEY_ENCRYPTION_KEY does not match the key it was encrypted with, or the stored value was altered`, options);
    this.name = 'KeyDecryptionError';
  }
}

/**
 * AES-256-GCM sealing of private keys at rest. `context` is bound as additional
 * authenticated data, so a sealed value copied to another row (another
 * organisation's key, another session) fails to open instead of being used.
 */
export class KeyEncryptionKey {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    const key = Buffer.from(keyBase64, 'base64');
    if (key.length !== 32) throw new Error('KEY_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
    this.key = key;
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** Throws KeyDecryptionError, never returns garbage. */
  open(sealed: string, context: string): string {
    const [version, ivText, bodyText] = sealed.split('.');
    if (version !== VERSION || !ivText || !bodyText) throw new KeyDecryptionError(context);
    try {
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new KeyDecryptionError(context, { cause: error });
    }
  }

  /** Keeps the key out of logs and JSON. */
  toJSON(): string {
    return '[KeyEncryptionKey]';
  }
}

export function generateKeyEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}
