import { describe, expect } from 'vitest';
import { AppError, NatsBus, serveRequests } from '@tessera/service-kit';
import { ErrorCode, verificationTemplateGetRpc } from '@tessera/contracts';
import { silentLogger, startPrivateNats, waitFor } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { createIntentAsLead, ORG, type World } from '../support/world.js';

const nats = await startPrivateNats();
if (!nats)
  process.stderr.write('[tessera] skipping "ecosystem through a NATS outage": needs a local nats-server binary\n');

// A nats-server of its own, so stopping it cannot disturb other test files; a fake
// verifier on it answers the template checks.
const test = harnessTest(async () => {
  const server = nats!;
  const logger = silentLogger();
  const appBus = await NatsBus.connect({ url: server.url, name: 'ecosystem-under-test', logger });
  const verifierBus = await NatsBus.connect({ url: server.url, name: 'fake-verifier', logger });
  serveRequests(verifierBus, verificationTemplateGetRpc, {
    logger,
    handler: async ({ templateId }) => {
      if (!templateId.startsWith('verifier-template-'))
        throw new AppError(404, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND, 'No such template.');
      return { id: templateId, orgId: ORG.lead, name: 'Age check', signerOption: 'DID' as const };
    },
  });
  return {
    bus: appBus,
    afterClose: async () => {
      await verifierBus.close();
      await server.destroy();
    },
  };
}).extend('intentId', { scope: 'file' }, async ({ harness, world }) =>
  createIntentAsLead(harness, world, 'age-check', 'x'),
);

describe.skipIf(!nats)('ecosystem through a NATS outage', () => {
  const addVerifierTemplate = (h: Harness, world: World, intentId: string, n: number, orgId?: string) =>
    h.call('POST', `/v1/intent/${intentId}/template`, {
      token: world.tokens.lead,
      body: { templateId: `verifier-template-${n}`, role: 'verifier', ...(orgId ? { orgId } : {}) },
    });

  test('answers 503 within the request timeout while NATS is down, keeps serving the rest, and recovers without a restart', async ({
    harness: h,
    world,
    intentId,
  }) => {
    const server = nats!;
    expect((await addVerifierTemplate(h, world, intentId, 1)).status).toBe(201);

    await server.stop();
    const started = Date.now();
    const refused = await addVerifierTemplate(h, world, intentId, 2, ORG.member);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect((await h.call('GET', `/v1/intent/${intentId}`, { token: world.tokens.lead })).status).toBe(200);
    expect(
      (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.member })).body.data,
    ).toHaveLength(1);
    // Readiness means "this pod can serve": a NATS outage never takes it out of its Service.
    const ready = await h.call('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'unavailable' } });

    await server.start();
    await waitFor(async () => (await addVerifierTemplate(h, world, intentId, 2, ORG.member)).status === 201);
    expect((await h.call('GET', '/health/ready')).body).toEqual({
      status: 'ok',
      checks: { database: 'ok', nats: 'ok' },
    });
    expect(
      (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data,
    ).toHaveLength(2);
  }, 60000);
});
