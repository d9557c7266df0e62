import { deflateRawSync } from 'node:zlib';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCookieSeal } from '../../src/crypto/cookie-seal.js';
import { sessionCookieMaxAgeSeconds, sessionIsLive } from '../../src/domain/console-session.js';

describe('the cookie seal (AES-256-GCM under a key from SESSION_SECRET)', () => {
  const seal = createCookieSeal('a-session-secret-of-at-least-32-characters');

  it('opens what it sealed, for the same purpose, under the same secret only', () => {
    const value = { id: 'x', tokens: { accessToken: 'eyJ.a.b' }, n: 1 };
    const sealed = seal.seal('session', value);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(seal.open('session', sealed)).toEqual(value);
    // Another sealing of the same value differs (a fresh IV each time).
    expect(seal.seal('session', value)).not.toBe(sealed);
    expect(seal.open('flash', sealed)).toBeUndefined();
    expect(createCookieSeal('another-session-secret-of-32-characters!').open('session', sealed)).toBeUndefined();
  });

  it('refuses any change: a flipped bit, a cut, another version, not base64url', () => {
    const sealed = seal.seal('session', { who: 'alice' });
    const bytes = Buffer.from(sealed, 'base64url');
    for (let index = 0; index < bytes.length; index += 1) {
      const changed = Buffer.from(bytes);
      changed[index]! ^= 0x01;
      expect(seal.open('session', changed.toString('base64url'))).toBeUndefined();
    }
    expect(seal.open('session', sealed.slice(0, -2))).toBeUndefined();
    expect(seal.open('session', `${sealed}.`)).toBeUndefined();
    expect(seal.open('session', '')).toBeUndefined();
  });

  it('refuses a sealed value that inflates beyond 64 KB (the key holder’s own bug, not a browser’s)', () => {
    // Sealed as the console would, by hand, with the same key derivation: 1 MB of zeros deflates to 1 KB.
    const key = Buffer.from(
      hkdfSync(
        'sha256',
        'a-session-secret-of-at-least-32-characters',
        'tessera-console',
        'cookie-seal/aes-256-gcm/v1',
        32,
      ),
    );
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('session'));
    const body = Buffer.concat([
      cipher.update(deflateRawSync(JSON.stringify({ pad: '0'.repeat(1_000_000) }))),
      cipher.final(),
    ]);
    const bomb = Buffer.concat([Buffer.from([1]), iv, body, cipher.getAuthTag()]).toString('base64url');
    expect(bomb.length).toBeLessThan(3000);
    expect(seal.open('session', bomb)).toBeUndefined();
  });
});

describe('a session’s lifetime, from its sealed times', () => {
  const lifetime = { idleMs: 30 * 60_000, maxAgeMs: 8 * 3_600_000 };
  const signedInAt = Date.parse('2026-03-01T09:00:00Z');

  it('lives while used within the idle time, and never beyond the maximum', () => {
    expect(sessionIsLive({ signedInAt, lastUsedAt: signedInAt }, signedInAt + 30 * 60_000, lifetime)).toBe(true);
    expect(sessionIsLive({ signedInAt, lastUsedAt: signedInAt }, signedInAt + 30 * 60_000 + 1, lifetime)).toBe(false);
    const lastUsedAt = signedInAt + 8 * 3_600_000 - 60_000;
    expect(sessionIsLive({ signedInAt, lastUsedAt }, signedInAt + 8 * 3_600_000, lifetime)).toBe(true);
    expect(sessionIsLive({ signedInAt, lastUsedAt }, signedInAt + 8 * 3_600_000 + 1, lifetime)).toBe(false);
    // Signed in "in the future" (another replica's clock far ahead, or a forged time): not live.
    expect(sessionIsLive({ signedInAt, lastUsedAt: signedInAt }, signedInAt - 3_600_000, lifetime)).toBe(false);
  });

  it('gives the cookie a Max-Age that ends with the session', () => {
    expect(sessionCookieMaxAgeSeconds({ signedInAt, lastUsedAt: signedInAt }, signedInAt, lifetime)).toBe(1800);
    const late = signedInAt + 8 * 3_600_000 - 600_000;
    expect(sessionCookieMaxAgeSeconds({ signedInAt, lastUsedAt: late }, late, lifetime)).toBe(600);
  });
});
