import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tessera/service-kit';
import { loadEcosystemConfig } from '../../src/config.js';

describe('configuration', () => {
  it('requires the OIDC settings outside development mode, naming each variable', () => {
    expect(() => loadEcosystemConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadEcosystemConfig({ NODE_ENV: 'production', OIDC_ISSUER: 'https://idp' });
    } catch (error) {
      expect((error as ConfigError).problems.join('\n')).toMatch(/OIDC_AUDIENCE.*OIDC_JWKS_URI or OIDC_JWKS_FILE/);
    }
  });

  it('reads ECOSYSTEM_ENABLED as a boolean (default true) and rejects bad values', () => {
    const base = { NODE_ENV: 'development' };
    expect(loadEcosystemConfig(base).ECOSYSTEM_ENABLED).toBe(true);
    expect(loadEcosystemConfig({ ...base, ECOSYSTEM_ENABLED: 'false' }).ECOSYSTEM_ENABLED).toBe(false);
    expect(() => loadEcosystemConfig({ ...base, ECOSYSTEM_ENABLED: 'maybe' })).toThrow(ConfigError);
    expect(() => loadEcosystemConfig({ ...base, NATS_URL: 'http://nats' })).toThrow(ConfigError);
    expect(loadEcosystemConfig(base).PORT).toBe(3002);
  });
});
