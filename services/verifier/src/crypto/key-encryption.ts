import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Format tag of sealed values, so a future format change can tell versions apart. */
const VERSION = 'v1';

/** Decryption failed: the KEY_ENCRYPTION_KEY is not the one the value was sealed with, or the value was altered. */
export class KeyDecryptionError extends Error {
  constructor(context: string, options?: { cause?: unknown }) {
    super(
      `could not decrypt ${context}: KEY_ENCRYPTION_KEY does not match the key it was encrypted with, or the stored value was altered`,
      options,
    );
    this.name = 'KeyDecryptionError';
  }
}

/**
 * `v1.<iv>.<ciphertext+tag>`: AES-256-GCM of `plaintext` under `key` (32 bytes)
 * with `context` as additional authenticated data. Shared by the key-encryption
 * key and the organisations' data keys (crypto/data-key.ts).
 */
export function sealAesGcm(key: Buffer, plaintext: string | Buffer, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([
    typeof plaintext === 'string' ? cipher.update(plaintext, 'utf8') : cipher.update(plaintext),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** The plaintext of `sealAesGcm`, or undefined when `key` and `context` do not open it (wrong key, other row, altered value). */
export function openAesGcm(key: Buffer, sealed: string, context: string): Buffer | undefined {
  const [version, ivText, bodyText, extra] = sealed.split('.');
  if (version !== VERSION || !ivText || !bodyText || extra !== undefined) return undefined;
  const body = Buffer.from(bodyText, 'base64url');
  const iv = Buffer.from(ivText, 'base64url');
  if (iv.length !== 12 || body.length < 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
  } catch {
    return undefined;
  }
}

/**
 * AES-256-GCM sealing of secrets at rest (private keys, webhook secrets, the
 * organisations' data keys). `context` is bound as additional authenticated
 * data, so a sealed value copied to another row (another organisation's key,
 * another session) fails to open instead of being used.
 *
 * Rotation: values are always sealed with the current key; `open` also tries
 * the previous keys (KEY_ENCRYPTION_KEY_PREVIOUS), so what was sealed before a
 * rotation stays readable, and `resealWithCurrent` moves a value onto the
 * current key (done at start for every registered kind, db/sealed-kinds.ts).
 */
export class KeyEncryptionKey {
  private readonly keys: Buffer[];

  constructor(keyBase64: string, previousKeysBase64: readonly string[] = []) {
    this.keys = [keyBase64, ...previousKeysBase64].map((text) => {
      const key = Buffer.from(text, 'base64');
      if (key.length !== 32) throw new Error('KEY_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
      return key;
    });
  }

  /** KEY_ENCRYPTION_KEY_PREVIOUS was given: values only a previous key opens are re-sealed at start. */
  get hasPreviousKeys(): boolean {
    return this.keys.length > 1;
  }

  seal(plaintext: string, context: string): string {
    return sealAesGcm(this.keys[0]!, plaintext, context);
  }

  /** Throws KeyDecryptionError, never returns garbage. */
  open(sealed: string, context: string): string {
    return this.openBytes(sealed, context).toString('utf8');
  }

  /** As `open`, for binary secrets (data keys). */
  openBytes(sealed: string, context: string): Buffer {
    for (const key of this.keys) {
      const opened = openAesGcm(key, sealed, context);
      if (opened) return opened;
    }
    throw new KeyDecryptionError(context);
  }

  sealBytes(plaintext: Buffer, context: string): string {
    return sealAesGcm(this.keys[0]!, plaintext, context);
  }

  /**
   * The value sealed afresh with the current key when only a previous key opens
   * it; undefined when the current key already does. Throws KeyDecryptionError
   * when no configured key opens it.
   */
  resealWithCurrent(sealed: string, context: string): string | undefined {
    if (openAesGcm(this.keys[0]!, sealed, context)) return undefined;
    return this.sealBytes(this.openBytes(sealed, context), context);
  }

  /** Keeps the key out of logs and JSON. */
  toJSON(): string {
    return '[KeyEncryptionKey]';
  }
}

export function generateKeyEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}
