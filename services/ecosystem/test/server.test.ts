import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, InProcessBus, InProcessHub, mintDevToken } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { Subject } from '@tessera/contracts';
import { loadEcosystemConfig } from '../src/config.js';
import { startEcosystem, type RunningService } from '../src/server.js';

describe('startEcosystem in development mode (embedded PGlite, in-process bus, development OIDC key)', () => {
  let dataDir: string;
  let service: RunningService;
  const hub = new InProcessHub();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-ecosystem-'));
    const config = loadEcosystemConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    service = await startEcosystem(config, silentLogger(), { hub });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens, migrates, and reports database and bus ready', async () => {
    expect(service.name).toBe('ecosystem');
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'ok' } });
  });

  it('trusts tokens minted with the development key (npm run token)', async () => {
    const token = await mintDevToken(dataDir, { sub: 'dev-user', email: 'dev@example.org', orgRoles: { 'org-dev': ['owner'] } });
    const put = await fetch(`${service.url}/v1/organisations/org-dev`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dev Org' }),
    });
    expect(put.status).toBe(201);
    expect((await fetch(`${service.url}/v1/ecosystem/status`)).status).toBe(401);
  });

  it('answers ecosystem.v1.intent.resolve on the shared in-process hub', async () => {
    const client = new InProcessBus(hub);
    const reply = await client.request(Subject.INTENT_RESOLVE, { ecosystemId: '00000000-0000-4000-8000-000000000000', intent: 'x', orgId: 'org-dev', role: 'verifier' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'ECOSYSTEM_NOT_FOUND' } });
    await client.close();
  });
});

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
