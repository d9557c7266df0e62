import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_SEED, fuzzAllRoutes, fuzzRunsPerRoute } from '@tessera/service-kit/testing';
import { createHarness, type Harness } from '../support/harness.js';
import { ORG, OTHER_ORG, sdJwtQuery } from '../support/fixtures.js';
import { snapshotWithoutSessionCounters } from '../support/state-snapshot.js';

// Requests generated from each route's own schema (valid-shaped and hostile; fixed
// seed FUZZ_SEED, FUZZ_RUNS per route) as an owner of the organisation, so they get
// past authorization. The invariant that matters most for the wallet endpoints: a
// 4xx changes no table (junk never ends a session).
describe('verifier fuzzing', () => {
  let h: Harness;
  const known: Record<string, string[]> = { orgId: [ORG, OTHER_ORG], verifierId: ['desk'] };

  beforeAll(async () => {
    h = await createHarness();
    const headers = await h.auth(ORG, ['owner']);
    const post = (url: string, payload: object) => h.app.inject({ method: 'POST', url, headers, payload });
    await post(`/v1/orgs/${ORG}/oid4vp/verifier`, { verifierId: 'desk' });
    const sessions = await Promise.all(
      (['direct_post', 'direct_post.jwt', 'dc_api'] as const).map(async (responseMode) =>
        (await post(`/v1/orgs/${ORG}/oid4vp/presentation?verifierId=desk`, { dcql: sdJwtQuery(), responseMode, ...(responseMode === 'dc_api' ? { expectedOrigins: ['https://rp.tessera.test'] } : {}) })).json().data,
      ),
    );
    known.authorizationRequestId = sessions.map((session) => session.authorizationRequestId);
    known.id = [];
  });
  afterAll(() => h.close());

  it('never answers 5xx, always answers its error body, and changes nothing on a 4xx', async () => {
    const report = await fuzzAllRoutes({
      app: h.app,
      seed: FUZZ_SEED,
      runsPerRoute: fuzzRunsPerRoute(),
      authHeaders: await h.auth(ORG, ['owner']),
      knownPathValues: known,
      // Per-session request counts move on every request that names a session (support/state-snapshot.ts).
      snapshot: () => snapshotWithoutSessionCounters(h.testDb.database),
      // The wallet endpoints answer OAuth-shaped errors; nothing may let junk change a session.
      oauthPrefix: '/oid4vp/authorization-',
    });
    expect(report.routes).toBeGreaterThanOrEqual(25);
    expect(report.problems).toEqual([]);
  }, 300000);
});
