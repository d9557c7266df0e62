import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { missingServer } from '@tessera/service-kit/testing';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { ORG } from '../support/world.js';

// Simultaneous requests obey the same rules as sequential ones: one winner, and the
// losers get the documented code a late caller would. Needs a PostgreSQL server.

describe.skipIf(missingServer('postgres', 'ecosystem concurrency'))('concurrency (server PostgreSQL)', () => {
  test('turns simultaneous accepts of one invitation into one membership; the others get INVITATION_NOT_PENDING', async ({
    harness: h,
    world,
  }) => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.call('POST', '/v1/ecosystem/update-invitation-status', {
          token: world.tokens.invited,
          body: { status: 'accepted', ecosystemId: world.ecosystemId },
        }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of responses.filter((r) => r.status !== 200))
      expectStatus(loser, 409, ErrorCode.INVITATION_NOT_PENDING);
    const members = await h.call('GET', `/v1/ecosystem/members?ecosystemId=${world.ecosystemId}`, {
      token: world.tokens.lead,
    });
    expect(
      members.body.data.data.filter((m: { organisation: { id: string } }) => m.organisation.id === ORG.invited),
    ).toHaveLength(1);
  });

  test('creates one intent from simultaneous same-name requests; the losers get INTENT_NAME_TAKEN', async ({
    harness: h,
    world,
  }) => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
          token: world.tokens.lead,
          body: { name: i % 2 ? 'Race' : 'RACE', description: '' },
        }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of responses.filter((r) => r.status !== 201))
      expectStatus(loser, 409, ErrorCode.INTENT_NAME_TAKEN);
  });

  test('creates one ecosystem from one lead invitation under simultaneous creates', async ({ harness: h, world }) => {
    const owner = await h.idp.mint({
      sub: 'user-racer',
      email: 'racer@example.org',
      orgRoles: { 'org-racer': ['owner'] },
    });
    await h.call('PUT', '/v1/organisations/org-racer', { token: owner, body: { name: 'Racer' } });
    expectStatus(
      await h.call('POST', '/v1/invitations', { token: world.tokens.admin, body: { email: 'racer@example.org' } }),
      201,
    );
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h.call('POST', '/v1/ecosystem/org-racer/create', {
          token: owner,
          body: { name: `Racing ${i}`, description: '' },
        }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of responses.filter((r) => r.status !== 201))
      expectStatus(loser, 403, ErrorCode.NO_LEAD_INVITATION);
    expect(
      (await h.call('GET', '/v1/ecosystem/dashboard/summary', { token: world.tokens.admin })).body.data.ecosystem,
    ).toBe(2);
  });

  test('keeps one pending lead invitation per e-mail and one member invitation per organisation under races', async ({
    harness: h,
    world,
  }) => {
    const invites = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call('POST', '/v1/invitations', { token: world.tokens.admin, body: { email: 'same@example.org' } }),
      ),
    );
    expect(invites.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of invites.filter((r) => r.status !== 201)) expectStatus(loser, 409, ErrorCode.INVITATION_PENDING);
    const outsiderInvites = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call('POST', '/v1/ecosystem/invite-member', {
          token: world.tokens.lead,
          body: { orgId: ORG.outsider, ecosystemId: world.ecosystemId },
        }),
      ),
    );
    expect(outsiderInvites.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of outsiderInvites.filter((r) => r.status !== 201))
      expectStatus(loser, 409, ErrorCode.INVITATION_PENDING);
  });

  test('gives simultaneous notice updates distinct consecutive versions', async ({ harness: h, world }) => {
    const intentId = (
      await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
        token: world.tokens.lead,
        body: { name: 'Noticed', description: '' },
      })
    ).body.data.id;
    const body = {
      title: 'T',
      controller: { name: 'C', contact: 'c@example.org' },
      purposes: [{ id: 'dpv:ServiceProvision', description: 'd' }],
      personalDataCategories: ['pd:Age'],
      processingOperations: [],
      legalBasis: 'dpv:Consent',
      retention: { duration: 'P1D' },
    };
    const creates = await Promise.all(
      Array.from({ length: 4 }, () =>
        h.call('POST', `/v1/intent/${intentId}/notice`, { token: world.tokens.lead, body }),
      ),
    );
    expect(creates.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of creates.filter((r) => r.status !== 201)) expectStatus(loser, 409, ErrorCode.NOTICE_EXISTS);
    const updates = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call('PUT', `/v1/intent/${intentId}/notice`, { token: world.tokens.member, body }),
      ),
    );
    expect(updates.map((r) => r.body.data.version).sort((a: number, b: number) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
  });
});
