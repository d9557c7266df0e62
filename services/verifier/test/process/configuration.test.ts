import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tessera/service-kit';
import { loadVerifierConfig } from '../../src/config.js';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { PUBLIC_BASE_URL, TEST_OIDC_ENV } from '../support/harness.js';

describe('configuration', () => {
  it('requires PUBLIC_BASE_URL, KEY_ENCRYPTION_KEY and OIDC outside development, one line each, never quoting a value', () => {
    try {
      loadVerifierConfig({ NODE_ENV: 'production' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const text = (error as ConfigError).problems.join('\n');
      expect(text).toMatch(/OIDC_ISSUER/);
    }
    const withOidc = { NODE_ENV: 'production', ...TEST_OIDC_ENV };
    expect(() => loadVerifierConfig(withOidc)).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadVerifierConfig({ ...withOidc, PUBLIC_BASE_URL })).toThrow(/KEY_ENCRYPTION_KEY/);
    const shortKey = Buffer.alloc(31, 7).toString('base64') + 'AAAA';
    try {
      loadVerifierConfig({ ...withOidc, PUBLIC_BASE_URL, KEY_ENCRYPTION_KEY: shortKey });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toMatch(/KEY_ENCRYPTION_KEY: must be 32 bytes/);
      expect(String(error)).not.toContain(shortKey);
    }
    expect(loadVerifierConfig({ NODE_ENV: 'development' })).toMatchObject({ SESSION_TTL_SECONDS: 300, PORT: 3001 });
    expect(() =>
      loadVerifierConfig({
        ...withOidc,
        PUBLIC_BASE_URL,
        KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
        PLATFORM_CA_CERT_PEM: 'x',
      }),
    ).toThrow(/give both/);
  });

  it('reads KEY_ENCRYPTION_KEY and KEY_ENCRYPTION_KEY_PREVIOUS from mounted files (KEY_ENCRYPTION_KEY_FILE)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verifier-keys-'));
    const current = generateKeyEncryptionKey();
    const previous = generateKeyEncryptionKey();
    writeFileSync(join(dir, 'KEY_ENCRYPTION_KEY'), `${current}\n`);
    writeFileSync(join(dir, 'KEY_ENCRYPTION_KEY_PREVIOUS'), previous);
    const base = { NODE_ENV: 'production', ...TEST_OIDC_ENV, PUBLIC_BASE_URL };
    const config = loadVerifierConfig({
      ...base,
      KEY_ENCRYPTION_KEY_FILE: join(dir, 'KEY_ENCRYPTION_KEY'),
      KEY_ENCRYPTION_KEY_PREVIOUS_FILE: join(dir, 'KEY_ENCRYPTION_KEY_PREVIOUS'),
    });
    expect(config.KEY_ENCRYPTION_KEY).toBe(current);
    expect(config.KEY_ENCRYPTION_KEY_PREVIOUS).toBe(previous);
    expect(() =>
      loadVerifierConfig({
        ...base,
        KEY_ENCRYPTION_KEY: current,
        KEY_ENCRYPTION_KEY_FILE: join(dir, 'KEY_ENCRYPTION_KEY'),
      }),
    ).toThrow(/KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_FILE: give one, not both/);
    const shortKey = Buffer.alloc(31, 7).toString('base64') + 'AAAA';
    writeFileSync(join(dir, 'short'), shortKey);
    try {
      loadVerifierConfig({ ...base, KEY_ENCRYPTION_KEY_FILE: join(dir, 'short') });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toMatch(/KEY_ENCRYPTION_KEY: must be 32 bytes/);
      expect(String(error)).not.toContain(shortKey);
    }
  });
});
