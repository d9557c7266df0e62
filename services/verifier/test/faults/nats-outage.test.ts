import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intentResolveRpc, Subject } from '@tessera/contracts';
import { NatsBus, serveRequests, type MessageBus } from '@tessera/service-kit';
import { createTestDatabase, silentLogger, startPrivateNats, type PrivateServer, type TestDatabase } from '@tessera/service-kit/testing';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type VerifierDbSchema } from '../../src/db/schema.js';
import { ORG, sdJwtQuery } from '../support/dcql-queries.js';
import { startVerifierOn, waitFor, type VerifierUnderTest } from '../support/start-verifier-on.js';

const nats = await startPrivateNats();
if (!nats) process.stderr.write('[tessera] skipping "verifier through a NATS outage": needs a local nats-server binary\n');

// A nats-server of its own, so stopping it cannot disturb other test files. The
// ecosystem side is a fake `ecosystem.v1.intent.resolve` responder on its own
// connection (a service never imports another).
describe.skipIf(!nats)('verifier through a NATS outage', () => {
  const TIMEOUT_MS = 1000;
  let server: PrivateServer;
  let testDb: TestDatabase<VerifierDbSchema>;
  let v: VerifierUnderTest;
  let ecosystem: MessageBus;
  let templateId: string;
  const base = `/v1/orgs/${ORG}/oid4vp`;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => v.app.inject({ method, url, headers: await v.auth(ORG), ...(payload ? { payload } : {}) });
  const intentBased = () => call('POST', `${base}/intent-based-verification-presentation?verifierId=desk&ecosystemId=${randomUUID()}`, { intent: 'age-check', responseMode: 'direct_post' });

  beforeAll(async () => {
    server = nats!;
    const logger = silentLogger();
    testDb = await createTestDatabase({ schema, service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER });
    const bus = await NatsBus.connect({ url: server.url, name: 'verifier-under-test', logger });
    v = await startVerifierOn({ database: testDb.database, bus, config: { ECOSYSTEM_TIMEOUT_MS: String(TIMEOUT_MS) } });
    expect((await call('POST', `${base}/verifier`, { verifierId: 'desk' })).statusCode).toBe(201);
    templateId = (await call('POST', `${base}/verification-template`, { name: 'PID', templateJson: { dcql: { query: sdJwtQuery() } }, signerOption: 'X509_P256' })).json().data.id;
    ecosystem = await NatsBus.connect({ url: server.url, name: 'fake-ecosystem', logger });
    serveRequests(ecosystem, intentResolveRpc, {
      logger,
      handler: async (request) => ({ intentId: 'intent-1', intent: request.intent, templateId, scope: 'ecosystem' as const }),
    });
    await ecosystem.ping();
  });
  afterAll(async () => {
    await v?.close();
    await ecosystem?.close();
    await testDb?.drop();
    await server?.destroy();
  });

  it('answers intent-based requests 503 within the request timeout while NATS is down, serves everything else, and recovers without a restart', async () => {
    expect((await intentBased()).statusCode).toBe(201);

    await server.stop();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const refused = await intentBased();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1500);
    }
    expect((await v.app.inject({ url: '/health/ready' })).statusCode).toBe(503);
    expect((await v.app.inject({ url: '/health' })).statusCode).toBe(200);
    // Everything that does not need the ecosystem keeps working, state-change events included (published when NATS returns or dropped).
    const direct = await call('POST', `${base}/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode: 'direct_post' });
    expect(direct.statusCode).toBe(201);
    const session = direct.json().data;
    const requestObject = await v.app.inject({ method: 'GET', url: `/oid4vp/authorization-requests/${session.authorizationRequestId}` });
    expect(requestObject.statusCode).toBe(200);
    expect((await call('GET', `${base}/verifier-presentation?id=${session.id}`)).json().data.state).toBe('RequestUriRetrieved');
    expect((await call('GET', `${base}/verification-template/${templateId}`)).statusCode).toBe(200);
    expect((await v.app.inject({ url: '/oid4vp/platform-ca.pem' })).statusCode).toBe(200);

    await server.start();
    await waitFor(async () => (await intentBased()).statusCode === 201, 20000, 'intent-based requests after NATS returned');
    expect((await v.app.inject({ url: '/health/ready' })).statusCode).toBe(200);
    // The verifier's own responder is back too: the ecosystem can read templates again.
    const template = (await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { templateId }, { timeoutMs: 2000 })) as { ok: boolean; data?: { id: string } };
    expect(template).toMatchObject({ ok: true, data: { id: templateId } });
  }, 60000);
});
