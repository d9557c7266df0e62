// Use-case tests call the operations with their deps (a real database of the file, the
// in-process bus, a clock the test holds); these build what they share.
import { randomBytes } from 'node:crypto';
import { test } from 'vitest';
import type { Principal } from '@tessera/service-kit';
import { createTestDatabase, type TestDatabase } from '@tessera/service-kit/testing';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type EcosystemDbSchema } from '../../src/db/schema.js';
import type { EcosystemDb } from '../../src/db/types.js';
import { answerInvitation } from '../../src/use-cases/answer-invitation.js';
import { createEcosystem } from '../../src/use-cases/create-ecosystem.js';
import { inviteLead } from '../../src/use-cases/invite-lead.js';
import { inviteMember } from '../../src/use-cases/invite-member.js';
import { registerOrganisation } from '../../src/use-cases/register-organisation.js';

/** `test` with `testDb`: a fresh migrated database per test file. */
export const useCaseTest = test.extend('testDb', { scope: 'file' }, async ({}, { onCleanup }) => {
  const testDb: TestDatabase<EcosystemDbSchema> = await createTestDatabase({
    schema,
    service: 'ecosystem',
    migrationsFolder: MIGRATIONS_FOLDER,
  });
  onCleanup(() => testDb.drop());
  return testDb;
});

/** A name no other test of the file uses (the database is the file's). */
export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** The owner of `orgId`, as the token verifier reads one (Keycloak's layout). */
export function ownerOf(orgId: string): Principal {
  const sub = `user-${orgId}`;
  return { sub, email: `${sub}@example.org`, platformAdmin: false, orgRoles: { [orgId]: ['owner'] } };
}

export const PLATFORM_ADMIN: Principal = {
  sub: 'user-platform-admin',
  email: 'admin@example.org',
  platformAdmin: true,
  orgRoles: {},
};

/** The parties of a formed ecosystem: each organisation's id and owner. */
export interface Party {
  orgId: string;
  owner: Principal;
}

export interface FormedEcosystem {
  ecosystemId: string;
  lead: Party;
  /** Invited and accepted: an ACTIVE member. */
  member: Party;
  /** Invited, not yet answered. */
  invited: Party;
  /** Registered in the directory, never invited. */
  outsider: Party;
}

/**
 * The formation story through the use cases: four organisations registered, the lead
 * invited by the platform admin and its ecosystem created, two organisations invited,
 * one of which accepted.
 */
export async function formEcosystem(db: EcosystemDb): Promise<FormedEcosystem> {
  const party = async (role: string): Promise<Party> => {
    const orgId = unique(`org-${role}`);
    const owner = ownerOf(orgId);
    await registerOrganisation({ db }, { principal: owner, orgId, name: `${role} organisation` });
    return { orgId, owner };
  };
  const [lead, member, invited, outsider] = await Promise.all(['lead', 'member', 'invited', 'outsider'].map(party));
  await inviteLead({ db }, { principal: PLATFORM_ADMIN, email: lead!.owner.email! });
  const ecosystem = await createEcosystem(
    { db },
    {
      principal: lead!.owner,
      orgId: lead!.orgId,
      body: { name: unique('Ecosystem'), description: 'a test ecosystem' },
    },
  );
  for (const { orgId } of [member!, invited!])
    await inviteMember({ db }, { principal: lead!.owner, ecosystemId: ecosystem.id, orgId });
  await answerInvitation({ db }, { principal: member!.owner, body: { ecosystemId: ecosystem.id, status: 'accepted' } });
  return { ecosystemId: ecosystem.id, lead: lead!, member: member!, invited: invited!, outsider: outsider! };
}
