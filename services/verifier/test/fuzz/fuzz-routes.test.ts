import { describe, expect } from 'vitest';
import { FUZZ_SEED, fuzzAllRoutes, fuzzRunsPerRoute } from '@tessera/service-kit/testing';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';
import { snapshotWithoutSessionCounters } from '../support/state-snapshot.js';

// Requests generated from each route's own schema (valid-shaped and hostile; fixed
// seed FUZZ_SEED, FUZZ_RUNS per route) as an owner of the organisation, so they get
// past authorization. The invariant that matters most for the wallet endpoints: a
// 4xx changes no table (junk never ends a session).

// Path values the fuzzer may use: the organisations, ORG's verifier `desk`, and one session of each kind.
const test = verifierTest.extend('knownPathValues', { scope: 'file' }, async ({ api, desk }) => {
  const sessions = await Promise.all(
    (['direct_post', 'direct_post.jwt', 'dc_api'] as const).map(
      async (responseMode) =>
        (
          await api(
            'POST',
            `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=${desk}`,
            {
              dcql: sdJwtQuery(),
              responseMode,
              ...(responseMode === 'dc_api' ? { expectedOrigins: ['https://rp.tessera.test'] } : {}),
            },
            { roles: ['owner'] },
          )
        ).body.data,
    ),
  );
  return {
    orgId: [ORG, OTHER_ORG],
    verifierId: [desk],
    authorizationRequestId: sessions.map((session) => session.authorizationRequestId as string),
    id: [],
  };
});

describe('verifier fuzzing', () => {
  test(
    'never answers 5xx, always answers its error body, and changes nothing on a 4xx',
    { timeout: 300000 },
    async ({ harness: h, knownPathValues }) => {
      const report = await fuzzAllRoutes({
        app: h.app,
        seed: FUZZ_SEED,
        runsPerRoute: fuzzRunsPerRoute(),
        authHeaders: await h.auth(ORG, ['owner']),
        knownPathValues,
        // Per-session request counts move on every request that names a session (support/state-snapshot.ts).
        snapshot: () => snapshotWithoutSessionCounters(h.testDb.database),
        // The wallet endpoints answer OAuth-shaped errors; nothing may let junk change a session.
        oauthPrefix: '/oid4vp/authorization-',
      });
      expect(report.routes).toBeGreaterThanOrEqual(25);
      expect(report.problems).toEqual([]);
    },
  );
});
