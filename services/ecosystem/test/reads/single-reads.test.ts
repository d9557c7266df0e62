import { describe, expect } from 'vitest';
import type { EcosystemListEntry, Organisation, TrustListVisibility } from '@tessera/contracts';
import type { CallResult } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { expectStatus, type Enveloped } from '../support/responses.js';
import { ORG, emailOf } from '../support/world.js';

const test = harnessTest();

// The reads the console needed: one ecosystem, a directory entry, the trust list's
// visibility — their bodies, their 404s, and callers with the wrong organisation or role.
describe('reads of one ecosystem, a directory entry and the trust list visibility', () => {
  test('GET /v1/ecosystem/{id}: the entry the list shows, for the lead and a member', async ({ harness: h, world }) => {
    const listed: CallResult<Enveloped<{ data: EcosystemListEntry[] }>> = await h.call('GET', '/v1/ecosystem', {
      token: world.tokens.lead,
    });
    const entry = listed.body.data.data.find((ecosystem) => ecosystem.id === world.ecosystemId)!;
    const lead: CallResult<Enveloped<EcosystemListEntry>> = await h.call('GET', `/v1/ecosystem/${world.ecosystemId}`, {
      token: world.tokens.lead,
    });
    expectStatus(lead, 200);
    expect(lead.body.data).toEqual(entry);
    const member: CallResult<Enveloped<EcosystemListEntry>> = await h.call(
      'GET',
      `/v1/ecosystem/${world.ecosystemId}`,
      { token: world.tokens.member },
    );
    expectStatus(member, 200);
    expect(member.body.data).toMatchObject({ id: world.ecosystemId, name: entry.name });
    expect(member.body.data).not.toEqual(entry);

    // Unknown, malformed, and not the caller's: 404 alike; a token of the lead organisation without a managing
    // role (verifier) stands nowhere either.
    const verifier = await h.idp.mint({ sub: 'user-clerk', orgRoles: { [ORG.lead]: ['verifier'] } });
    for (const [url, token] of [
      ['/v1/ecosystem/3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', world.tokens.lead],
      ['/v1/ecosystem/not-a-uuid', world.tokens.lead],
      [`/v1/ecosystem/${world.ecosystemId}`, world.tokens.outsider],
      [`/v1/ecosystem/${world.ecosystemId}`, verifier],
    ] as const) {
      const refused = await h.call('GET', url, { token });
      expectStatus(refused, 404);
      expect(refused.body).toMatchObject({ code: 'ECOSYSTEM_NOT_FOUND' });
    }
    expectStatus(await h.call('GET', `/v1/ecosystem/${world.ecosystemId}`), 401);
    // The static routes beside it are unchanged.
    expectStatus(await h.call('GET', '/v1/ecosystem/status', { token: world.tokens.lead }), 200);
  });

  test('GET /v1/organisations/{orgId}: the entry, for its owners and admins', async ({ harness: h, world }) => {
    const owner: CallResult<Enveloped<Organisation>> = await h.call('GET', `/v1/organisations/${ORG.lead}`, {
      token: world.tokens.lead,
    });
    expectStatus(owner, 200);
    expect(owner.body.data).toMatchObject({
      id: ORG.lead,
      name: 'lead organisation',
      ownerUserId: 'user-lead',
      ownerEmail: emailOf('lead'),
    });
    const admin = await h.idp.mint({ sub: 'user-lead-admin', orgRoles: { [ORG.lead]: ['admin'] } });
    expectStatus(await h.call('GET', `/v1/organisations/${ORG.lead}`, { token: admin }), 200);

    const renamed = await h.call('PUT', `/v1/organisations/${ORG.lead}`, {
      token: world.tokens.lead,
      body: { name: 'Lead, renamed' },
    });
    expectStatus(renamed, 200);
    const read: CallResult<Enveloped<Organisation>> = await h.call('GET', `/v1/organisations/${ORG.lead}`, {
      token: admin,
    });
    expect(read.body.data.name).toBe('Lead, renamed');

    // Another organisation's owner, and a member of this one without a managing role: 403.
    const verifier = await h.idp.mint({ sub: 'user-clerk', orgRoles: { [ORG.lead]: ['verifier'] } });
    for (const token of [world.tokens.member, verifier, world.tokens.admin]) {
      const refused = await h.call('GET', `/v1/organisations/${ORG.lead}`, { token });
      expectStatus(refused, 403);
    }
    expectStatus(await h.call('GET', `/v1/organisations/${ORG.lead}`), 401);
    // Not in the directory yet: 404, said so.
    const newcomer = await h.idp.mint({ sub: 'user-new', orgRoles: { 'org-new': ['owner'] } });
    const missing = await h.call('GET', '/v1/organisations/org-new', { token: newcomer });
    expectStatus(missing, 404);
    expect(missing.body).toMatchObject({ code: 'ORGANISATION_NOT_FOUND' });
  });

  test('GET /v1/ecosystem/{id}/trust-list/visibility: what the lead set, for the lead and members', async ({
    harness: h,
    world,
  }) => {
    const read = async (token: string) =>
      (await h.call('GET', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`, { token })) as CallResult<
        Enveloped<TrustListVisibility>
      >;
    const before = await read(world.tokens.member);
    expectStatus(before, 200);
    expect(before.body.data.public).toBe(false);
    expectStatus(
      await h.call('PUT', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`, {
        token: world.tokens.lead,
        body: { public: true },
      }),
      200,
    );
    expect((await read(world.tokens.lead)).body.data.public).toBe(true);
    expect((await read(world.tokens.member)).body.data.public).toBe(true);
    for (const token of [
      world.tokens.outsider,
      await h.idp.mint({ sub: 'c', orgRoles: { [ORG.lead]: ['verifier'] } }),
    ]) {
      const refused = await h.call('GET', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`, { token });
      expectStatus(refused, 404);
    }
    expectStatus(
      await h.call('GET', '/v1/ecosystem/3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f/trust-list/visibility', {
        token: world.tokens.lead,
      }),
      404,
    );
    expectStatus(await h.call('GET', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`), 401);
  });
});
