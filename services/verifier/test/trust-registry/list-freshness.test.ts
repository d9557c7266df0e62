import { describe, expect } from 'vitest';
import { expectEachUnavailableFast } from '@tessera/service-kit/testing';
import { expectSessionUnchanged } from '../support/answers.js';
import { expectVerified } from '../support/crafted-answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { ORG, oid4vpPath } from '../support/management.js';
import { answerAs, createRegistryIssuer, entity, stubEcosystemFixture } from './support.js';

// When no current list can be had — the ecosystem service silent, its NATS link down,
// the held snapshot past its nextUpdate — that ecosystem's sessions answer 503
// DEPENDENCY_UNAVAILABLE: at creation (platform body), and to the wallet's answer
// (OAuth body, temporarily_unavailable) and the DC API call, leaving the session open
// so the wallet can answer again once the list is back.
const ORIGIN = 'https://rp.tessera.test';
const MINUTE = 60_000;
const test = e2eTest().extend('ecosystem', { scope: 'file' }, ({ harness }, hooks) =>
  stubEcosystemFixture(() => harness.connectPeer('ecosystem-stub'))({}, hooks),
);

describe('a trust list that cannot be had', () => {
  test('a snapshot past its nextUpdate is never used: with the ecosystem silent the answer is 503 and the session stays open; the list back, the wallet answers again and it verifies', async ({
    harness: h,
    api,
    e2e: e,
    ecosystem,
    sessionEvents,
  }) => {
    const issuer = await createRegistryIssuer('Stale List Issuer');
    const list = ecosystem.add({
      entities: [entity({ name: 'Stale List Issuer', certificates: [issuer.ca] })],
      members: new Set([ORG]),
      nextUpdateInMs: 10 * MINUTE,
    });
    const redirect = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
      expiresInSeconds: 3600,
    });
    const dcApi = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      ecosystemId: list.ecosystemId,
      expiresInSeconds: 3600,
    });

    ecosystem.stop();
    await ecosystem.bus.ping();
    // A direct session asks the ecosystem (membership) on every creation: 503 while it is silent.
    const created = await api('POST', `${oid4vpPath()}/presentation?verifierId=desk`, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
    });
    expect(created.body).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });

    h.clock.offsetMs = 11 * MINUTE;
    try {
      const answered = await answerAs(e, redirect, issuer);
      expect(answered).toEqual({
        status: 503,
        body: { error: 'temporarily_unavailable', error_description: expect.stringMatching(/trust list/) },
      });
      await expectSessionUnchanged(e, sessionEvents, redirect);
      const viaDcApi = await answerAs(e, dcApi, issuer, { origin: ORIGIN });
      expect(viaDcApi.status).toBe(503);
      expect(viaDcApi.body).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
      await expectSessionUnchanged(e, sessionEvents, dcApi, 'RequestCreated');

      // The ecosystem answers again, but with a list whose nextUpdate is already past (by the verifier's clock): still 503.
      ecosystem.serve();
      await ecosystem.bus.ping();
      const pastNextUpdate = await answerAs(e, redirect, issuer);
      expect(pastNextUpdate).toMatchObject({
        status: 503,
        body: { error: 'temporarily_unavailable', error_description: expect.stringMatching(/past its nextUpdate/) },
      });
      await expectSessionUnchanged(e, sessionEvents, redirect);
    } finally {
      h.clock.offsetMs = 0;
    }
    const result = await expectVerified(e, redirect, await answerAs(e, redirect, issuer));
    expect(result.presentations[0]).toMatchObject({ trustedEntityName: 'Stale List Issuer' });
    const dcApiAgain = await answerAs(e, dcApi, issuer, { origin: ORIGIN });
    expect(dcApiAgain.status).toBe(200);
  });

  test('the ecosystem service unreachable: creating a session that needs its list is 503 at once and stores nothing; it recovers when the service is back', async ({
    api,
    e2e: e,
    ecosystem,
  }) => {
    const issuer = await createRegistryIssuer('Outage Issuer');
    const list = ecosystem.add({
      entities: [entity({ name: 'Outage Issuer', certificates: [issuer.ca] })],
      members: new Set([ORG]),
    });
    const count = async () =>
      (await api('GET', `${oid4vpPath()}/verifier-presentation`)).body.data.totalItems as number;
    const before = await count();
    ecosystem.stop();
    await ecosystem.bus.ping();
    const create = () =>
      api('POST', `${oid4vpPath()}/presentation?verifierId=desk`, {
        dcql: sdJwtQuery(),
        responseMode: 'direct_post',
        ecosystemId: list.ecosystemId,
      });
    await expectEachUnavailableFast([create, create], 3000);
    expect(await count()).toBe(before);

    ecosystem.serve();
    await ecosystem.bus.ping();
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
    });
    await expectVerified(e, session, await answerAs(e, session, issuer));
  });

  test('a current snapshot keeps serving verifications while the ecosystem is silent (until its nextUpdate)', async ({
    e2e: e,
    ecosystem,
  }) => {
    const issuer = await createRegistryIssuer('Held List Issuer');
    const list = ecosystem.add({
      entities: [entity({ name: 'Held List Issuer', certificates: [issuer.ca] })],
      members: new Set([ORG]),
    });
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
    });
    ecosystem.stop();
    await ecosystem.bus.ping();
    try {
      await expectVerified(e, session, await answerAs(e, session, issuer));
    } finally {
      ecosystem.serve();
      await ecosystem.bus.ping();
    }
  });
});
