import { describe, expect } from 'vitest';
import { expectFailedWith, expectVerified } from '../support/crafted-answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { ORG } from '../support/management.js';
import { answerAs, createRegistryIssuer, entity, eventually, stubEcosystemFixture } from './support.js';

// Core NATS may drop an event: every held list is asked for again every
// TRUST_LIST_REFRESH_MS (here 300 ms), with the sequence it holds, so a change whose
// event never arrived still takes effect within one period.
const REFRESH_MS = 300;
const test = e2eTest({ config: { TRUST_LIST_REFRESH_MS: String(REFRESH_MS) } }).extend(
  'ecosystem',
  { scope: 'file' },
  ({ harness }, hooks) => stubEcosystemFixture(() => harness.connectPeer('ecosystem-stub'))({}, hooks),
);

describe('periodic refresh of held trust lists', () => {
  test('a suspension whose change event was dropped is caught by the next refresh', async ({
    harness: h,
    e2e: e,
    ecosystem,
  }) => {
    const issuer = await createRegistryIssuer('Quietly Suspended');
    const listed = entity({ name: 'Quietly Suspended', certificates: [issuer.ca] });
    const list = ecosystem.add({ entities: [listed], members: new Set([ORG]) });
    const first = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
    });
    await expectVerified(e, first, await answerAs(e, first, issuer));
    const pending = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
    });

    const asked = ecosystem.received.length;
    ecosystem.setStatus(list, listed.id, 'suspended', { publish: false });
    await eventually(
      () => h.trustLists.sequences().get(list.ecosystemId) === 2,
      3 * REFRESH_MS + 1000,
      'a refresh brought the suspension',
    );
    await expectFailedWith(e, pending, await answerAs(e, pending, issuer), 'ISSUER_NOT_TRUSTED');
    // Refreshes ask with the sequence held, so an unchanged list costs no entities.
    const refreshes = ecosystem.received
      .slice(asked)
      .filter((request) => request.ecosystemId === list.ecosystemId && request.orgId === undefined);
    expect(refreshes[0]).toEqual({ ecosystemId: list.ecosystemId, knownSequence: 1 });
  });
});
