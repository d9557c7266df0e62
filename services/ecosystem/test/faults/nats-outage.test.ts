import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, NatsBus, serveRequests, type MessageBus } from '@tessera/service-kit';
import { verificationTemplateGetRpc } from '@tessera/contracts';
import { silentLogger, startPrivateNats, type PrivateServer, waitFor } from '@tessera/service-kit/testing';
import { startHarness, type Harness } from '../support/harness.js';
import { buildWorld, ORG, type World } from '../support/world.js';

const nats = await startPrivateNats();
if (!nats) process.stderr.write('[tessera] skipping "ecosystem through a NATS outage": needs a local nats-server binary\n');

// A nats-server of its own, so stopping it cannot disturb other test files.
describe.skipIf(!nats)('ecosystem through a NATS outage', () => {
  let server: PrivateServer;
  let h: Harness;
  let world: World;
  let verifierBus: MessageBus;
  let intentId: string;

  beforeAll(async () => {
    server = nats!;
    const logger = silentLogger();
    const appBus = await NatsBus.connect({ url: server.url, name: 'ecosystem-under-test', logger });
    verifierBus = await NatsBus.connect({ url: server.url, name: 'fake-verifier', logger });
    serveRequests(verifierBus, verificationTemplateGetRpc, {
      logger,
      handler: async ({ templateId }) => {
        if (!templateId.startsWith('verifier-template-')) throw new AppError(404, 'VERIFICATION_TEMPLATE_NOT_FOUND', 'No such template.');
        return { id: templateId, orgId: ORG.lead, name: 'Age check', signerOption: 'DID' as const };
      },
    });
    h = await startHarness({ bus: appBus });
    world = await buildWorld(h);
    intentId = (await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead, body: { name: 'age-check', description: 'x' } })).body.data.id;
  });
  afterAll(async () => {
    await h?.close();
    await verifierBus?.close();
    await server?.destroy();
  });

  const addVerifierTemplate = (n: number, orgId?: string) =>
    h.call('POST', `/v1/intent/${intentId}/template`, { token: world.tokens.lead, body: { templateId: `verifier-template-${n}`, role: 'verifier', ...(orgId ? { orgId } : {}) } });

  it('answers 503 within the request timeout while NATS is down, keeps serving the rest, and recovers without a restart', async () => {
    expect((await addVerifierTemplate(1)).status).toBe(201);

    await server.stop();
    const started = Date.now();
    const refused = await addVerifierTemplate(2, ORG.member);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect((await h.call('GET', `/v1/intent/${intentId}`, { token: world.tokens.lead })).status).toBe(200);
    expect((await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.member })).body.data).toHaveLength(1);
    expect((await h.call('GET', '/health/ready')).status).toBe(503);

    await server.start();
    await waitFor(async () => (await addVerifierTemplate(2, ORG.member)).status === 201);
    expect((await h.call('GET', '/health/ready')).status).toBe(200);
    expect((await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data).toHaveLength(2);
  }, 60000);
});

