import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { commonConfigProperties, ConfigError, loadConfig, shouldMigrateOnStart } from '../src/index.js';

const Schema = Type.Object({
  ...commonConfigProperties(3000),
  SECRET: Type.String({ minLength: 16 }),
  FLAG: Type.Boolean({ default: false }),
});

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(Schema, env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
}

describe('loadConfig', () => {
  it('converts strings, applies defaults and ignores unrelated variables', () => {
    const config = loadConfig(Schema, { SECRET: 'x'.repeat(16), PORT: '8080', FLAG: 'true', OTHER: 'ignored' });
    expect(config).toMatchObject({
      PORT: 8080,
      FLAG: true,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      SECRET: 'x'.repeat(16),
    });
    expect(config).not.toHaveProperty('OTHER');
  });

  it('reports one line per bad variable, naming it and never its value', () => {
    const secret = 'too-short-secret'.slice(0, 10);
    const lines = problems({
      SECRET: secret,
      PORT: '99999',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://db',
      FLAG: 'maybe',
    });
    expect(lines.map((line) => line.split(':')[0]).sort()).toEqual([
      'DATABASE_URL',
      'FLAG',
      'LOG_LEVEL',
      'PORT',
      'SECRET',
    ]);
    expect(lines.join('\n')).not.toContain(secret);
    expect(lines.find((line) => line.startsWith('LOG_LEVEL'))).toContain(
      'one of fatal, error, warn, info, debug, trace, silent',
    );
  });

  it('reports a missing required variable, and treats an empty one as unset', () => {
    expect(problems({})).toEqual(['SECRET: is required but not set']);
    expect(problems({ SECRET: '' })).toEqual(['SECRET: is required but not set']);
  });

  it('applies cross-variable rules after each variable passed', () => {
    const rule = (config: { NODE_ENV: string; FLAG: boolean }) =>
      config.NODE_ENV === 'production' && config.FLAG ? 'FLAG: must be off in production' : undefined;
    expect(() => loadConfig(Schema, { SECRET: 'x'.repeat(16), FLAG: 'true' }, [rule])).toThrow(
      'FLAG: must be off in production',
    );
  });

  it('reports rule problems together with bad variables in one go (a missing API key and a bad port)', () => {
    const apiKeyRule = (config: { NODE_ENV: string; API_KEY?: string }) =>
      config.NODE_ENV !== 'development' && !config.API_KEY
        ? 'API_KEY: is required outside development mode'
        : undefined;
    const WithKey = Type.Object({
      ...commonConfigProperties(3000),
      API_KEY: Type.Optional(Type.String({ minLength: 16 })),
    });
    const error = (() => {
      try {
        loadConfig(WithKey, { PORT: 'abc' }, [apiKeyRule]);
      } catch (caught) {
        return caught as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error.problems.map((line) => line.split(':')[0]).sort()).toEqual(['API_KEY', 'PORT']);
  });

  it('drops a rule line about a variable that already has its own problem, and a rule that throws on a bad value', () => {
    const FLAG_RULE = (config: { FLAG: boolean }) => (config.FLAG ? 'FLAG: must be off' : undefined);
    const throwing = (config: { PORT: number }) => (config.PORT.toFixed(0) === '1' ? 'PORT: one' : undefined);
    const lines = (() => {
      try {
        loadConfig(Schema, { SECRET: 'x'.repeat(16), FLAG: 'maybe', PORT: 'abc' }, [
          FLAG_RULE as never,
          throwing as never,
        ]);
      } catch (caught) {
        return (caught as ConfigError).problems;
      }
      return [];
    })();
    expect(lines.map((line) => line.split(':')[0]).sort()).toEqual(['FLAG', 'PORT']);
    expect(lines.find((line) => line.startsWith('FLAG'))).not.toContain('must be off');
  });

  it('migrates on start by default only in development', () => {
    expect(shouldMigrateOnStart({ NODE_ENV: 'development' })).toBe(true);
    expect(shouldMigrateOnStart({ NODE_ENV: 'production' })).toBe(false);
    expect(shouldMigrateOnStart({ NODE_ENV: 'production', MIGRATE_ON_START: true })).toBe(true);
    expect(shouldMigrateOnStart({ NODE_ENV: 'development', MIGRATE_ON_START: false })).toBe(false);
  });
});

describe('parseTrustProxy', () => {
  it('reads true/false, a hop count and address lists', async () => {
    const { parseTrustProxy } = await import('../src/index.js');
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    const hops = parseTrustProxy('1') as (address: string, hop: number) => boolean;
    expect([hops('x', 0), hops('x', 1)]).toEqual([true, false]);
  });

  it('answers client addresses from X-Forwarded-For only for trusted proxies', async () => {
    const { createApp } = await import('../src/index.js');
    const { silentLogger } = await import('../src/testing/index.js');
    for (const [trustProxy, expected] of [
      [undefined, '127.0.0.1'],
      ['true', '203.0.113.9'],
    ] as const) {
      const app = await createApp({
        name: 't',
        title: 't',
        description: 't',
        logger: silentLogger(),
        bodyLimit: 1024,
        readiness: {},
        ...(trustProxy ? { trustProxy } : {}),
      });
      app.get('/ip', async (request) => ({ ip: request.ip }));
      const response = await app.inject({
        url: '/ip',
        headers: { 'x-forwarded-for': '203.0.113.9' },
        remoteAddress: '127.0.0.1',
      });
      expect(response.json().ip).toBe(expected);
      await app.close();
    }
  });

  it('believes X-Forwarded-For from a proxy inside a TRUST_PROXY CIDR list only, taking the first untrusted hop', async () => {
    const { createApp } = await import('../src/index.js');
    const { silentLogger } = await import('../src/testing/index.js');
    const app = await createApp({
      name: 't',
      title: 't',
      description: 't',
      logger: silentLogger(),
      bodyLimit: 1024,
      readiness: {},
      trustProxy: '10.0.0.0/8, 192.168.0.0/16,fd00::/8',
    });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    const ipOf = async (remoteAddress: string, forwardedFor: string) =>
      (await app.inject({ url: '/ip', headers: { 'x-forwarded-for': forwardedFor }, remoteAddress })).json().ip;
    expect(await ipOf('10.2.3.4', '203.0.113.9')).toBe('203.0.113.9');
    expect(await ipOf('fd00::5', '203.0.113.9')).toBe('203.0.113.9');
    // A load balancer in one range behind an ingress in another: both trusted, the client is the next hop.
    expect(await ipOf('10.2.3.4', '203.0.113.9, 192.168.7.7')).toBe('203.0.113.9');
    // A spoofed header from outside the ranges is ignored; a spoofed entry before a trusted hop is not the answer.
    expect(await ipOf('172.16.0.1', '203.0.113.9')).toBe('172.16.0.1');
    expect(await ipOf('10.2.3.4', '1.1.1.1, 198.51.100.4')).toBe('198.51.100.4');
    await app.close();
  });
});
