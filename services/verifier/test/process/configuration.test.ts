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
    expect(() => loadVerifierConfig({ ...withOidc, PUBLIC_BASE_URL, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(), PLATFORM_CA_CERT_PEM: 'x' })).toThrow(/give both/);
  });
});
