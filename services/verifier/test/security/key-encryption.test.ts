import { describe, expect, it } from 'vitest';
import { generateKeyEncryptionKey, KeyDecryptionError, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';

describe('KeyEncryptionKey', () => {
  const key = new KeyEncryptionKey(generateKeyEncryptionKey());

  it('seals and opens with the same key and context', () => {
    const sealed = key.seal('secret', 'ctx');
    expect(sealed).not.toContain('secret');
    expect(key.open(sealed, 'ctx')).toBe('secret');
    expect(key.seal('secret', 'ctx')).not.toBe(sealed);
  });

  it('fails loudly with another key, another context or altered data', () => {
    const sealed = key.seal('secret', 'ctx');
    expect(() => new KeyEncryptionKey(generateKeyEncryptionKey()).open(sealed, 'ctx')).toThrow(KeyDecryptionError);
    expect(() => key.open(sealed, 'other')).toThrow(KeyDecryptionError);
    expect(() => key.open(`${sealed.slice(0, -2)}AA`, 'ctx')).toThrow(KeyDecryptionError);
    expect(() => key.open('garbage', 'ctx')).toThrow(KeyDecryptionError);
  });

  it('refuses keys that are not 32 bytes and never serialises the key', () => {
    expect(() => new KeyEncryptionKey(Buffer.alloc(16).toString('base64'))).toThrow();
    expect(JSON.stringify({ key })).toBe('{"key":"[KeyEncryptionKey]"}');
  });
});
