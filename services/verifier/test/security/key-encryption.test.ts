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

  it('after a rotation: seals with the current key, opens with current and previous keys, re-seals what only a previous key opens', () => {
    const oldText = generateKeyEncryptionKey();
    const newText = generateKeyEncryptionKey();
    const sealedBefore = new KeyEncryptionKey(oldText).seal('secret', 'ctx');
    const rotated = new KeyEncryptionKey(newText, [oldText]);
    expect(rotated.open(sealedBefore, 'ctx')).toBe('secret');
    expect(() => rotated.open(sealedBefore, 'other')).toThrow(KeyDecryptionError);
    const sealedAfter = rotated.seal('secret', 'ctx');
    expect(new KeyEncryptionKey(newText).open(sealedAfter, 'ctx')).toBe('secret');
    expect(() => new KeyEncryptionKey(oldText).open(sealedAfter, 'ctx')).toThrow(KeyDecryptionError);
    const resealed = rotated.resealWithCurrent(sealedBefore, 'ctx')!;
    expect(new KeyEncryptionKey(newText).open(resealed, 'ctx')).toBe('secret');
    expect(rotated.resealWithCurrent(sealedAfter, 'ctx')).toBeUndefined();
    expect(() => new KeyEncryptionKey(newText).resealWithCurrent(sealedBefore, 'ctx')).toThrow(KeyDecryptionError);
    expect(() => new KeyEncryptionKey(newText, [Buffer.alloc(16).toString('base64')])).toThrow();
  });

  it('refuses keys that are not 32 bytes and never serialises the key', () => {
    expect(() => new KeyEncryptionKey(Buffer.alloc(16).toString('base64'))).toThrow();
    expect(JSON.stringify({ key })).toBe('{"key":"[KeyEncryptionKey]"}');
  });
});
