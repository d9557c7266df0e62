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

  it('in production takes NATS only over tls:// as its own user, unless told the setup is local only', () => {
    const production = {
      NODE_ENV: 'production',
      OIDC_ISSUER: 'https://idp',
      OIDC_AUDIENCE: 'tessera',
      OIDC_JWKS_URI: 'https://idp/jwks',
      TRUST_LIST_CA_CERT_PEM_FILE: '/run/ca/tls.crt',
      TRUST_LIST_CA_KEY_PEM_FILE: '/run/ca/tls.key',
    };
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadEcosystemConfig({ ...production, ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems.map((problem) => problem.split(':')[0]);
      }
    };
    expect(problemsOf({ NATS_URL: 'nats://nats:4222' })).toEqual(['NATS_URL']);
    expect(problemsOf({ NATS_URL: 'tls://nats:4222', NATS_CA_FILE: '/etc/tessera/nats-ca/ca.crt' })).toEqual([
      'NATS_USER, NATS_CREDS_FILE',
    ]);
    expect(
      problemsOf({
        NATS_URL: 'tls://nats:4222',
        NATS_CA_FILE: '/etc/tessera/nats-ca/ca.crt',
        NATS_USER: 'ecosystem',
        NATS_PASS_FILE: '/etc/tessera/nats/password',
      }),
    ).toEqual([]);
    expect(problemsOf({ NATS_URL: 'nats://nats:4222', NATS_ALLOW_INSECURE: 'true' })).toEqual([]);
  });
});
