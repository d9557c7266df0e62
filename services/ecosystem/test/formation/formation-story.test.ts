import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { castTokens, emailOf, ORG, registerOrganisation } from '../support/world.js';

// One story, step by step: each test continues from the state the previous one left.
const test = harnessTest().extend('tokens', { scope: 'file' }, async ({ harness }) => castTokens(harness));

describe('ecosystem formation story', () => {
  let ecosystemId: string;

  test('registers the organisations in the directory (201 new, 200 updated)', async ({ harness: h, tokens }) => {
    const first = await h.call('PUT', `/v1/organisations/${ORG.lead}`, {
      token: tokens.lead,
      body: { name: 'Lead Org' },
    });
    expectStatus(first, 201);
    expect(first.body).toMatchObject({
      statusCode: 201,
      data: { id: ORG.lead, name: 'Lead Org', ownerUserId: 'user-lead', ownerEmail: emailOf('lead') },
    });
    const again = await h.call('PUT', `/v1/organisations/${ORG.lead}`, {
      token: tokens.lead,
      body: { name: 'Lead Organisation' },
    });
    expectStatus(again, 200);
    expect(again.body.data.name).toBe('Lead Organisation');
    for (const party of ['member', 'rejected'] as const)
      await registerOrganisation(h, tokens[party], ORG[party], `${party} org`);
  });

  test('lets the platform admin invite a lead, answered in the Ecosystem shape', async ({ harness: h, tokens }) => {
    const response = await h.call('POST', '/v1/invitations', { token: tokens.admin, body: { email: emailOf('lead') } });
    expectStatus(response, 201);
    expect(response.body).toEqual({
      statusCode: 201,
      message: expect.any(String),
      data: {
        id: expect.any(String),
        name: '',
        description: '',
        tags: null,
        autoEndorsement: false,
        logoUrl: null,
        createdBy: 'user-admin',
        createDateTime: expect.any(String),
      },
    });
    const list = await h.call('GET', '/v1/invitations', { token: tokens.admin });
    expect(list.body.data).toMatchObject({ totalItems: 1, totalPages: 1, page: 1, pageSize: 10 });
    expect(list.body.data.data[0]).toMatchObject({
      email: emailOf('lead'),
      status: 'pending',
      type: 'ecosystem',
      ecosystemId: null,
      ecosystem: null,
    });
  });

  test('lets the invited lead create the ecosystem', async ({ harness: h, tokens }) => {
    const response = await h.call('POST', `/v1/ecosystem/${ORG.lead}/create`, {
      token: tokens.lead,
      body: {
        name: 'Mobility',
        description: 'Shared mobility',
        tags: ['transport'],
        logoUrl: 'https://logo.example/m.png',
        autoEndorsement: true,
      },
    });
    expectStatus(response, 201);
    expect(response.body.data).toEqual({
      id: expect.any(String),
      name: 'Mobility',
      description: 'Shared mobility',
      tags: ['transport'],
      autoEndorsement: true,
      logoUrl: 'https://logo.example/m.png',
      createdBy: 'user-lead',
      createDateTime: expect.any(String),
    });
    ecosystemId = response.body.data.id;
    const invitation = (await h.call('GET', '/v1/invitations', { token: tokens.admin })).body.data.data[0];
    expect(invitation).toMatchObject({
      status: 'accepted',
      ecosystemId,
      invitedOrg: ORG.lead,
      userId: 'user-lead',
      ecosystem: { id: ecosystemId, name: 'Mobility' },
      organisation: { name: 'Lead Organisation' },
    });
  });

  test('lets the lead invite two organisations; one accepts, one rejects', async ({ harness: h, tokens }) => {
    for (const party of ['member', 'rejected'] as const) {
      const invited = await h.call('POST', '/v1/ecosystem/invite-member', {
        token: tokens.lead,
        body: { orgId: ORG[party], ecosystemId },
      });
      expectStatus(invited, 201);
      expect(invited.body.data).toMatchObject({
        type: 'member',
        status: 'pending',
        email: emailOf(party),
        invitedOrg: ORG[party],
        ecosystemId,
      });
    }
    const received = await h.call('GET', `/v1/ecosystem/invitations?role=Ecosystem%20Member&orgId=${ORG.member}`, {
      token: tokens.member,
    });
    expect(received.body.data.data).toHaveLength(1);
    expect(received.body.data.data[0]).toMatchObject({
      status: 'pending',
      ecosystem: { id: ecosystemId, name: 'Mobility' },
    });

    const accepted = await h.call('POST', '/v1/ecosystem/update-invitation-status', {
      token: tokens.member,
      body: { status: 'accepted', ecosystemId },
    });
    expectStatus(accepted, 200);
    expect(accepted.body.data.status).toBe('accepted');
    const rejected = await h.call('POST', '/v1/ecosystem/update-invitation-status', {
      token: tokens.rejected,
      body: { status: 'rejected', ecosystemId },
    });
    expectStatus(rejected, 200);
    expect(rejected.body.data.status).toBe('rejected');
  });

  test('lists what the lead sent, by ecosystem (and in the spec example form)', async ({ harness: h, tokens }) => {
    const sent = await h.call('GET', `/v1/ecosystem/invitations?role=Ecosystem%20Lead&ecosystemId=${ecosystemId}`, {
      token: tokens.lead,
    });
    expectStatus(sent, 200);
    expect(
      sent.body.data.data.map((i: { invitedOrg: string; status: string }) => [i.invitedOrg, i.status]).sort(),
    ).toEqual([
      [ORG.member, 'accepted'],
      [ORG.rejected, 'rejected'],
    ]);
    const specForm = await h.call(
      'GET',
      `/v1/ecosystem/invitations?role=Ecosystem%20Lead&orgId=${ecosystemId}&status=accepted`,
      { token: tokens.lead },
    );
    expect(specForm.body.data.totalItems).toBe(1);
  });

  test('lists the ecosystem for lead and member with memberCount, role and leadOrg; nothing for the rejected', async ({
    harness: h,
    tokens,
  }) => {
    const asLead = await h.call('GET', '/v1/ecosystem', { token: tokens.lead });
    expect(asLead.body.data).toMatchObject({ totalItems: 1, totalPages: 1 });
    expect(asLead.body.data.data[0]).toMatchObject({
      id: ecosystemId,
      name: 'Mobility',
      description: 'Shared mobility',
      memberCount: 2,
      role: 'Ecosystem Lead',
      leadOrg: { id: ORG.lead, name: 'Lead Organisation' },
    });
    const asMember = await h.call('GET', `/v1/ecosystem?orgId=${ORG.member}`, { token: tokens.member });
    expect(asMember.body.data.data[0]).toMatchObject({ id: ecosystemId, memberCount: 2, role: 'Ecosystem Member' });
    const asRejected = await h.call('GET', '/v1/ecosystem', { token: tokens.rejected });
    expect(asRejected.body.data).toEqual({ totalItems: 0, totalPages: 0, page: 1, pageSize: 10, data: [] });
  });

  test('shows members to the lead and the joined organisations to lead and member', async ({ harness: h, tokens }) => {
    const members = await h.call('GET', `/v1/ecosystem/members?ecosystemId=${ecosystemId}`, { token: tokens.lead });
    expectStatus(members, 200);
    expect(members.body.data.totalItems).toBe(2);
    expect(members.body.data.data[1]).toMatchObject({
      status: 'ACTIVE',
      role: 'Ecosystem Member',
      ecosystem: { id: ecosystemId, name: 'Mobility' },
      organisation: { id: ORG.member, name: 'member org' },
      user: { id: 'user-member', email: emailOf('member') },
    });
    const orgs = await h.call('GET', `/v1/ecosystem/get-ecosystem-orgs?ecosystemId=${ecosystemId}`, {
      token: tokens.member,
    });
    expectStatus(orgs, 200);
    expect(orgs.body.data.data.map((o: { id: string; role: string }) => [o.id, o.role])).toEqual([
      [ORG.lead, 'Ecosystem Lead'],
      [ORG.member, 'Ecosystem Member'],
    ]);
  });

  test('counts the dashboard for the platform admin', async ({ harness: h, tokens }) => {
    const summary = await h.call('GET', '/v1/ecosystem/dashboard/summary', { token: tokens.admin });
    expect(summary.body).toEqual({
      statusCode: 200,
      message: expect.any(String),
      data: { ecosystem: 1, invitations: 1, activeOrgs: 2 },
    });
  });

  test('returns a rejected organisation to pending when invited again, and it may then accept', async ({
    harness: h,
    tokens,
  }) => {
    const again = await h.call('POST', '/v1/ecosystem/invite-member', {
      token: tokens.lead,
      body: { orgId: ORG.rejected, ecosystemId },
    });
    expectStatus(again, 201);
    expect(again.body.data.status).toBe('pending');
    expectStatus(
      await h.call('POST', '/v1/ecosystem/update-invitation-status', {
        token: tokens.rejected,
        body: { status: 'accepted', ecosystemId },
      }),
      200,
    );
    const summary = await h.call('GET', '/v1/ecosystem/dashboard/summary', { token: tokens.admin });
    expect(summary.body.data.activeOrgs).toBe(3);
  });

  test('answers the feature status to any authenticated user', async ({ harness: h, tokens }) => {
    const status = await h.call('GET', '/v1/ecosystem/status', { token: tokens.nobody });
    expect(status.body).toEqual({ statusCode: 200, message: expect.any(String), data: { enabled: true } });
  });
});
