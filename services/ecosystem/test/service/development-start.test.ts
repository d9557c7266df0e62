import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test as base } from 'vitest';
import { Subject } from '@tessera/contracts';
import { x509 } from '@tessera/service-kit/x509';
import { InProcessBus, InProcessHub, mintDevToken } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { loadEcosystemConfig, trustListCaSourceOf } from '../../src/config.js';
import { startEcosystem, type RunningService } from '../../src/server.js';

/** The service as `npm start` runs it, with its data directory and the in-process hub it shares. */
interface DevelopmentService {
  service: RunningService;
  dataDir: string;
  hub: InProcessHub;
}

const test = base.extend('started', { scope: 'file' }, async ({}, { onCleanup }): Promise<DevelopmentService> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-ecosystem-'));
  const hub = new InProcessHub();
  let service: RunningService | undefined;
  onCleanup(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const config = loadEcosystemConfig({
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
  });
  service = await startEcosystem(config, silentLogger(), { hub });
  return { service, dataDir, hub };
});

describe('startEcosystem in development mode (embedded PGlite, in-process bus, development OIDC key)', () => {
  test('listens, migrates, and reports database and bus ready', async ({ started: { service } }) => {
    expect(service.name).toBe('ecosystem');
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'ok' } });
  });

  test('trusts tokens minted with the development key (npm run token)', async ({ started: { service, dataDir } }) => {
    const token = await mintDevToken(dataDir, {
      sub: 'dev-user',
      email: 'dev@example.org',
      orgRoles: { 'org-dev': ['owner'] },
    });
    const put = await fetch(`${service.url}/v1/organisations/org-dev`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dev Org' }),
    });
    expect(put.status).toBe(201);
    expect((await fetch(`${service.url}/v1/ecosystem/status`)).status).toBe(401);
  });

  test('generates the trust-list CA once under DATA_DIR/trust-list-ca/ (key 0600) and publishes it; a new start reuses it', async ({
    started: { service, dataDir },
  }) => {
    const certificatePem = readFileSync(join(dataDir, 'trust-list-ca', 'certificate.pem'), 'utf8');
    expect(statSync(join(dataDir, 'trust-list-ca', 'private-key.pem')).mode & 0o777).toBe(0o600);
    const published = await fetch(`${service.url}/v1/trust-list-ca.pem`);
    expect(published.status).toBe(200);
    expect(await published.text()).toBe(new x509.X509Certificate(certificatePem).toString('pem'));
    const { openTrustListCa } = await import('../../src/crypto/trust-list-ca.js');
    const again = await openTrustListCa(
      trustListCaSourceOf(loadEcosystemConfig({ NODE_ENV: 'development', DATA_DIR: dataDir })),
      new Date(),
    );
    expect(again.certificatePem).toBe(new x509.X509Certificate(certificatePem).toString('pem'));
  });

  test('answers ecosystem.v1.intent.resolve on the shared in-process hub', async ({ started: { hub } }) => {
    const client = new InProcessBus(hub);
    const reply = await client.request(Subject.INTENT_RESOLVE, {
      ecosystemId: '00000000-0000-4000-8000-000000000000',
      intent: 'x',
      orgId: 'org-dev',
      role: 'verifier',
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'ECOSYSTEM_NOT_FOUND' } });
    await client.close();
  });
});
