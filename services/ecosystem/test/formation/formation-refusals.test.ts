import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { emailOf, ORG, registerOrganisation } from '../support/world.js';

describe('formation error paths', () => {
  test('refuses a second pending lead invitation for one e-mail (ignoring case) with INVITATION_PENDING', async ({
    harness: h,
    world,
  }) => {
    expectStatus(
      await h.call('POST', '/v1/invitations', { token: world.tokens.admin, body: { email: 'future@example.org' } }),
      201,
    );
    expectStatus(
      await h.call('POST', '/v1/invitations', { token: world.tokens.admin, body: { email: 'Future@Example.org' } }),
      409,
      ErrorCode.INVITATION_PENDING,
    );
  });

  test('rejects a malformed lead invitation body with 400 and details', async ({ harness: h, world }) => {
    for (const body of [{}, { email: 'nope' }, { email: 'a@b.example', extra: 1 }, { email: 42 }]) {
      const response = await h.call('POST', '/v1/invitations', { token: world.tokens.admin, body });
      expectStatus(response, 400, ErrorCode.VALIDATION_FAILED);
      expect(response.body.details.length).toBeGreaterThan(0);
    }
  });

  test('needs a pending lead invitation for the caller e-mail to create an ecosystem (403 NO_LEAD_INVITATION)', async ({
    harness: h,
    world,
  }) => {
    const response = await h.call('POST', `/v1/ecosystem/${ORG.member}/create`, {
      token: world.tokens.member,
      body: { name: 'Mine', description: '' },
    });
    expectStatus(response, 403, ErrorCode.NO_LEAD_INVITATION);
    const noEmail = await h.idp.mint({ sub: 'x', orgRoles: { [ORG.member]: ['owner'] } });
    expectStatus(
      await h.call('POST', `/v1/ecosystem/${ORG.member}/create`, {
        token: noEmail,
        body: { name: 'Mine', description: '' },
      }),
      403,
      ErrorCode.NO_LEAD_INVITATION,
    );
  });

  test('needs the owner role in the named organisation (an admin of it is 403)', async ({ harness: h, world }) => {
    const admin = await h.idp.mint({ sub: 'x', email: 'future@example.org', orgRoles: { 'org-future': ['admin'] } });
    expectStatus(
      await h.call('POST', '/v1/ecosystem/org-future/create', {
        token: admin,
        body: { name: 'Future', description: '' },
      }),
      403,
      ErrorCode.FORBIDDEN,
    );
  });

  test('needs the organisation in the directory (404 ORGANISATION_NOT_FOUND) and a free name (409 ECOSYSTEM_NAME_TAKEN)', async ({
    harness: h,
    world,
  }) => {
    const owner = await h.idp.mint({
      sub: 'user-future',
      email: 'future@example.org',
      orgRoles: { 'org-future': ['owner'] },
    });
    const unknownOrg = await h.call('POST', '/v1/ecosystem/org-future/create', {
      token: owner,
      body: { name: 'Future', description: '' },
    });
    expectStatus(unknownOrg, 404, ErrorCode.ORGANISATION_NOT_FOUND);
    await registerOrganisation(h, owner, 'org-future', 'Future Org');
    const taken = await h.call('POST', '/v1/ecosystem/org-future/create', {
      token: owner,
      body: { name: '  health DATA space ', description: '' },
    });
    expectStatus(taken, 409, ErrorCode.ECOSYSTEM_NAME_TAKEN);
    // The failed attempt left the invitation pending: a good name now succeeds.
    expectStatus(
      await h.call('POST', '/v1/ecosystem/org-future/create', {
        token: owner,
        body: { name: 'Future', description: '' },
      }),
      201,
    );
    expectStatus(
      await h.call('POST', '/v1/ecosystem/org-future/create', {
        token: owner,
        body: { name: 'Future 2', description: '' },
      }),
      403,
      ErrorCode.NO_LEAD_INVITATION,
    );
  });

  test('validates the ecosystem body: name 2-50 chars after trimming, description up to 255, logoUrl a URL', async ({
    harness: h,
    world,
  }) => {
    const bodies = [
      { name: 'x', description: '' },
      { name: '  x  ', description: '' },
      { name: 'y'.repeat(51), description: '' },
      { name: 'Valid', description: 'd'.repeat(256) },
      { name: 'Valid', description: '', logoUrl: 'javascript:alert(1)' },
      { name: 'Valid', description: '', tags: ['ok', ''] },
      { name: 'Valid' },
    ];
    for (const body of bodies) {
      expectStatus(
        await h.call('POST', `/v1/ecosystem/${ORG.lead}/create`, { token: world.tokens.lead, body }),
        400,
        ErrorCode.VALIDATION_FAILED,
      );
    }
  });

  test('refuses member invitations that make no sense', async ({ harness: h, world }) => {
    const invite = (orgId: string, ecosystemId = world.ecosystemId) =>
      h.call('POST', '/v1/ecosystem/invite-member', { token: world.tokens.lead, body: { orgId, ecosystemId } });
    expectStatus(await invite(ORG.member), 409, ErrorCode.ALREADY_MEMBER);
    expectStatus(await invite(ORG.lead), 409, ErrorCode.ALREADY_MEMBER);
    expectStatus(await invite(ORG.invited), 409, ErrorCode.INVITATION_PENDING);
    expectStatus(await invite('org-unknown'), 404, ErrorCode.ORGANISATION_NOT_FOUND);
    expectStatus(
      await invite(ORG.outsider, '00000000-0000-4000-8000-000000000000'),
      404,
      ErrorCode.ECOSYSTEM_NOT_FOUND,
    );
    expectStatus(await invite(ORG.outsider, 'not-a-uuid'), 400, ErrorCode.VALIDATION_FAILED);
    expectStatus(await invite('bad org id!'), 400, ErrorCode.VALIDATION_FAILED);
  });

  test('only moves a pending invitation (409 INVITATION_NOT_PENDING) and takes accepted or rejected only', async ({
    harness: h,
    world,
  }) => {
    const answer = (token: string, body: Record<string, unknown>) =>
      h.call('POST', '/v1/ecosystem/update-invitation-status', {
        token,
        body: { ecosystemId: world.ecosystemId, ...body },
      });
    expectStatus(await answer(world.tokens.member, { status: 'rejected' }), 409, ErrorCode.INVITATION_NOT_PENDING);
    expectStatus(await answer(world.tokens.rejected, { status: 'accepted' }), 409, ErrorCode.INVITATION_NOT_PENDING);
    expectStatus(await answer(world.tokens.invited, { status: 'pending' }), 400, ErrorCode.VALIDATION_FAILED);
    expectStatus(await answer(world.tokens.invited, { status: 'ACCEPTED' }), 400, ErrorCode.VALIDATION_FAILED);
    expectStatus(
      await answer(world.tokens.invited, { status: 'accepted', orgId: ORG.member }),
      403,
      ErrorCode.FORBIDDEN,
    );
    expectStatus(
      await h.call('POST', '/v1/ecosystem/update-invitation-status', {
        token: world.tokens.invited,
        body: { status: 'accepted', ecosystemId: '00000000-0000-4000-8000-000000000000' },
      }),
      404,
      ErrorCode.ECOSYSTEM_NOT_FOUND,
    );
  });

  test('lets an admin (not only the owner) of the invited organisation answer, naming the organisation when it has several', async ({
    harness: h,
    world,
  }) => {
    const both = await h.idp.mint({
      sub: 'user-two-hats',
      email: 'two@example.org',
      orgRoles: { [ORG.invited]: ['admin'], 'org-second': ['owner'] },
    });
    await registerOrganisation(h, both, 'org-second', 'Second');
    expectStatus(
      await h.call('POST', '/v1/ecosystem/invite-member', {
        token: world.tokens.lead,
        body: { orgId: 'org-second', ecosystemId: world.ecosystemId },
      }),
      201,
    );
    const ambiguous = await h.call('POST', '/v1/ecosystem/update-invitation-status', {
      token: both,
      body: { status: 'accepted', ecosystemId: world.ecosystemId },
    });
    expectStatus(ambiguous, 400, ErrorCode.VALIDATION_FAILED);
    expect(ambiguous.body.details[0].path).toBe('/orgId');
    const named = await h.call('POST', '/v1/ecosystem/update-invitation-status', {
      token: both,
      body: { status: 'accepted', ecosystemId: world.ecosystemId, orgId: ORG.invited },
    });
    expectStatus(named, 200);
    expect(named.body.data).toMatchObject({
      invitedOrg: ORG.invited,
      status: 'accepted',
      lastChangedBy: 'user-two-hats',
    });
  });

  test('needs a perspective for the invitation listing', async ({ harness: h, world }) => {
    const list = (query: string, token = world.tokens.lead) =>
      h.call('GET', `/v1/ecosystem/invitations?${query}`, { token });
    expectStatus(await list(''), 400, ErrorCode.VALIDATION_FAILED);
    expectStatus(await list('role=Ecosystem%20Lead'), 400, ErrorCode.VALIDATION_FAILED);
    expectStatus(await list('role=Ecosystem%20Lead&orgId=org-lead'), 400, ErrorCode.VALIDATION_FAILED);
    expectStatus(await list('role=Boss&orgId=org-lead'), 400, ErrorCode.VALIDATION_FAILED);
    expectStatus(await list('status=maybe&ecosystemId=' + world.ecosystemId), 400, ErrorCode.VALIDATION_FAILED);
    const inferred = await list(`ecosystemId=${world.ecosystemId}&status=pending`);
    expectStatus(inferred, 200);
    expect(inferred.body.data.data.every((i: { status: string }) => i.status === 'pending')).toBe(true);
    expect((await list(`orgId=${ORG.rejected}`, world.tokens.rejected)).body.data.data[0]).toMatchObject({
      status: 'rejected',
      email: emailOf('rejected'),
    });
  });

  test('lists only the lead invitations the calling admin sent', async ({ harness: h, world }) => {
    const otherAdmin = await h.idp.mint({ sub: 'user-admin-2', platformAdmin: true });
    expect((await h.call('GET', '/v1/invitations', { token: otherAdmin })).body.data.totalItems).toBe(0);
    const mine = await h.call('GET', '/v1/invitations?status=pending', { token: world.tokens.admin });
    expect(mine.body.data.data.map((i: { email: string }) => i.email)).toEqual([]);
  });
});
