// The formation of an ecosystem, operation by operation, through the use cases' deps.
import { describe, expect } from 'vitest';
import { pageWindow } from '@tessera/service-kit';
import { answerInvitation } from '../../src/use-cases/answer-invitation.js';
import { createEcosystem } from '../../src/use-cases/create-ecosystem.js';
import { inviteLead } from '../../src/use-cases/invite-lead.js';
import { inviteMember } from '../../src/use-cases/invite-member.js';
import { listEcosystemMembers } from '../../src/use-cases/list-ecosystem-members.js';
import { registerOrganisation } from '../../src/use-cases/register-organisation.js';
import { formEcosystem, ownerOf, PLATFORM_ADMIN, unique, useCaseTest as test } from '../support/use-cases.js';

describe('registerOrganisation', () => {
  test('the owner registers the organisation, then renames it; the owner e-mail is recorded for invitations', async ({
    testDb: { database },
  }) => {
    const orgId = unique('org');
    const owner = ownerOf(orgId);
    const first = await registerOrganisation({ db: database.db }, { principal: owner, orgId, name: '  Acme  ' });
    expect(first).toMatchObject({ created: true, organisation: { id: orgId, name: 'Acme', ownerEmail: owner.email } });
    const again = await registerOrganisation({ db: database.db }, { principal: owner, orgId, name: 'Acme Health' });
    expect(again).toMatchObject({ created: false, organisation: { id: orgId, name: 'Acme Health' } });
  });

  test("is refused to anyone but the organisation's owner, and to a token without an e-mail", async ({
    testDb: { database },
  }) => {
    const orgId = unique('org');
    const stranger = ownerOf(unique('org-other'));
    await expect(
      registerOrganisation({ db: database.db }, { principal: stranger, orgId, name: 'Acme' }),
    ).rejects.toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    const { email: _email, ...withoutEmail } = ownerOf(orgId);
    await expect(
      registerOrganisation({ db: database.db }, { principal: withoutEmail, orgId, name: 'Acme' }),
    ).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe('inviteLead and createEcosystem', () => {
  test('the platform admin invites a lead; the invited owner creates the ecosystem and leads it', async ({
    testDb: { database },
  }) => {
    const db = database.db;
    const orgId = unique('org-lead');
    const owner = ownerOf(orgId);
    await registerOrganisation({ db }, { principal: owner, orgId, name: 'Lead organisation' });
    await expect(inviteLead({ db }, { principal: owner, email: owner.email! })).rejects.toMatchObject({
      statusCode: 403,
    });
    await inviteLead({ db }, { principal: PLATFORM_ADMIN, email: owner.email! });
    await expect(
      inviteLead({ db }, { principal: PLATFORM_ADMIN, email: owner.email!.toUpperCase() }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'INVITATION_PENDING' });

    const name = unique('Health Data Space');
    const ecosystem = await createEcosystem(
      { db },
      { principal: owner, orgId, body: { name: ` ${name} `, description: 'shared health data' } },
    );

    expect(ecosystem).toMatchObject({ name, description: 'shared health data' });
    const members = await listEcosystemMembers(
      { db },
      { principal: owner, ecosystemId: ecosystem.id, window: pageWindow({}) },
    );
    expect(members.rows.map((row) => row.membership.orgId)).toEqual([orgId]);
    // The invitation is spent: a second ecosystem needs a new one.
    await expect(
      createEcosystem({ db }, { principal: owner, orgId, body: { name: unique('Second'), description: '' } }),
    ).rejects.toMatchObject({ statusCode: 403, code: 'NO_LEAD_INVITATION' });
  });

  test('refuses an ecosystem without a lead invitation, for an unregistered organisation, and under a taken name', async ({
    testDb: { database },
  }) => {
    const db = database.db;
    const orgId = unique('org-new');
    const owner = ownerOf(orgId);
    const body = { name: unique('Space'), description: '' };
    await expect(createEcosystem({ db }, { principal: owner, orgId, body })).rejects.toMatchObject({
      code: 'NO_LEAD_INVITATION',
    });
    await inviteLead({ db }, { principal: PLATFORM_ADMIN, email: owner.email! });
    await expect(createEcosystem({ db }, { principal: owner, orgId, body })).rejects.toMatchObject({
      statusCode: 404,
      code: 'ORGANISATION_NOT_FOUND',
    });
    await registerOrganisation({ db }, { principal: owner, orgId, name: 'New organisation' });
    await createEcosystem({ db }, { principal: owner, orgId, body });
    // Another invited lead meets the name rule: names are unique ignoring case.
    const otherOrg = unique('org-late');
    const other = ownerOf(otherOrg);
    await registerOrganisation({ db }, { principal: other, orgId: otherOrg, name: 'Late organisation' });
    await inviteLead({ db }, { principal: PLATFORM_ADMIN, email: other.email! });
    await expect(
      createEcosystem({ db }, { principal: other, orgId: otherOrg, body: { ...body, name: body.name.toUpperCase() } }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'ECOSYSTEM_NAME_TAKEN' });
  });
});

describe('inviteMember and answerInvitation', () => {
  test('an accepted invitation makes an ACTIVE member; a rejected one does not; an answer is given once', async ({
    testDb: { database },
  }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    const members = () =>
      listEcosystemMembers(
        { db },
        { principal: world.lead.owner, ecosystemId: world.ecosystemId, window: pageWindow({}) },
      ).then(({ rows }) => rows.map((row) => row.membership.orgId).sort());
    expect(await members()).toEqual([world.lead.orgId, world.member.orgId].sort());

    const rejected = await answerInvitation(
      { db },
      { principal: world.invited.owner, body: { ecosystemId: world.ecosystemId, status: 'rejected' } },
    );
    expect(rejected.invitation).toMatchObject({ status: 'rejected', invitedOrg: world.invited.orgId });
    expect(await members()).toEqual([world.lead.orgId, world.member.orgId].sort());
    await expect(
      answerInvitation(
        { db },
        {
          principal: world.invited.owner,
          body: { ecosystemId: world.ecosystemId, orgId: world.invited.orgId, status: 'accepted' },
        },
      ),
    ).rejects.toMatchObject({ statusCode: 409, code: 'INVITATION_NOT_PENDING' });
  });

  test('only the lead invites; an organisation outside the directory, a member and a pending invitation are refused', async ({
    testDb: { database },
  }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    const invite = (principal = world.lead.owner, orgId = world.outsider.orgId) =>
      inviteMember({ db }, { principal, ecosystemId: world.ecosystemId, orgId });
    await expect(invite(world.member.owner)).rejects.toMatchObject({ statusCode: 403 });
    await expect(invite(world.lead.owner, unique('org-unknown'))).rejects.toMatchObject({
      statusCode: 404,
      code: 'ORGANISATION_NOT_FOUND',
    });
    await expect(invite(world.lead.owner, world.member.orgId)).rejects.toMatchObject({ statusCode: 409 });
    await expect(invite(world.lead.owner, world.invited.orgId)).rejects.toMatchObject({
      statusCode: 409,
      code: 'INVITATION_PENDING',
    });
    const invited = await invite();
    expect(invited.invitation).toMatchObject({ status: 'pending', invitedOrg: world.outsider.orgId });
    expect(invited.ecosystem?.id).toBe(world.ecosystemId);
  });
});
