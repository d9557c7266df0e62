import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, InProcessBus, serveRequests } from '@tessera/service-kit';
import { verificationTemplateGetRpc } from '@tessera/contracts';
import { FUZZ_SEED, fuzzAllRoutes, fuzzRunsPerRoute, silentLogger, snapshotSchema } from '@tessera/service-kit/testing';
import { startHarness, type Harness } from '../support/harness.js';
import { buildWorld, noticeBody, ORG, type World } from '../support/world.js';

// Requests generated from each route's own schema, valid-shaped and hostile, with a
// fixed seed (FUZZ_SEED) and FUZZ_RUNS requests per route (40 by default), sent as a
// caller who is platform admin and owner of every organisation of the cast, so that
// requests get past authorization into the service's logic.
describe('ecosystem fuzzing', () => {
  let h: Harness;
  let world: World;
  let intentId: string;
  let intentTemplateId: string;
  let token: string;

  beforeAll(async () => {
    h = await startHarness();
    world = await buildWorld(h);
    const intent = await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead, body: { name: 'age-check', description: 'Check age' } });
    intentId = intent.body.data.id;
    const template = await h.call('POST', `/v1/intent/${intentId}/template`, { token: world.tokens.lead, body: { templateId: 'cred-template-1', role: 'issuer' } });
    intentTemplateId = template.body.data.id;
    await h.call('POST', `/v1/intent/${intentId}/notice`, { token: world.tokens.lead, body: noticeBody() });
    // The verifier's side of template checks, so verifier-role requests reach the service's logic.
    serveRequests(new InProcessBus(h.hub), verificationTemplateGetRpc, {
      logger: silentLogger(),
      handler: async ({ templateId }) => {
        if (templateId !== 'verifier-template-1') throw new AppError(404, 'VERIFICATION_TEMPLATE_NOT_FOUND', 'No such template.');
        return { id: templateId, orgId: ORG.lead, name: 'Age check', signerOption: 'DID' as const };
      },
    });
    token = await h.sign({
      sub: 'user-lead',
      email: 'lead@example.org',
      platformAdmin: true,
      orgs: Object.fromEntries(Object.values(ORG).map((org) => [org, ['owner', 'admin']])),
    });
  });
  afterAll(() => h.close());

  it('never answers 5xx, always answers the error body and security headers, never CORS, and changes nothing on a 4xx', async () => {
    const report = await fuzzAllRoutes({
      app: h.app,
      seed: FUZZ_SEED,
      runsPerRoute: fuzzRunsPerRoute(),
      authHeaders: { authorization: `Bearer ${token}` },
      knownPathValues: {
        orgId: Object.values(ORG),
        ecosystemId: [world.ecosystemId],
        intentId: [intentId],
        intentTemplateId: [intentTemplateId],
      },
      snapshot: () => snapshotSchema(h.testDb.database, 'ecosystem'),
    });
    expect(report.routes).toBeGreaterThanOrEqual(20);
    expect(report.problems).toEqual([]);
  }, 300000);
});
