import { expect } from 'vitest';
import type { Ecosystem, Intent } from '@tessera/contracts';
import type { CallResult } from '@tessera/service-kit/testing';
import type { Harness } from './harness.js';
import { expectStatus, type Enveloped } from './responses.js';

/** Organisations of the standard cast; each is owned by the user of the same key. */
export const ORG = {
  lead: 'org-lead',
  member: 'org-member',
  invited: 'org-invited',
  rejected: 'org-rejected',
  outsider: 'org-outsider',
} as const;

export type Party = keyof typeof ORG;

export interface World {
  ecosystemId: string;
  tokens: Record<Party | 'admin' | 'nobody', string>;
}

export const emailOf = (party: Party) => `${party}@example.org`;

/** Tokens of the cast: a platform admin, one owner per organisation, and a user with no organisation. */
export async function castTokens(h: Harness): Promise<World['tokens']> {
  const entries = await Promise.all(
    (Object.keys(ORG) as Party[]).map(
      async (party) =>
        [
          party,
          await h.idp.mint({ sub: `user-${party}`, email: emailOf(party), orgRoles: { [ORG[party]]: ['owner'] } }),
        ] as const,
    ),
  );
  return {
    ...(Object.fromEntries(entries) as Record<Party, string>),
    admin: await h.idp.mint({ sub: 'user-admin', email: 'admin@example.org', platformAdmin: true }),
    nobody: await h.idp.mint({ sub: 'user-nobody', email: 'nobody@example.org' }),
  };
}

export async function registerOrganisation(h: Harness, token: string, orgId: string, name: string): Promise<void> {
  expect((await h.call('PUT', `/v1/organisations/${orgId}`, { token, body: { name } })).status).toBeLessThan(300);
}

/**
 * The formation story up to a working ecosystem: every organisation registered, the
 * lead invited and its ecosystem created, three organisations invited, one accepted,
 * one rejected, one left pending.
 */
export async function buildWorld(h: Harness, name = 'Health Data Space'): Promise<World> {
  const tokens = await castTokens(h);
  for (const party of Object.keys(ORG) as Party[])
    await registerOrganisation(h, tokens[party], ORG[party], `${party} organisation`);
  expectStatus(await h.call('POST', '/v1/invitations', { token: tokens.admin, body: { email: emailOf('lead') } }), 201);
  const created: CallResult<Enveloped<Ecosystem>> = await h.call('POST', `/v1/ecosystem/${ORG.lead}/create`, {
    token: tokens.lead,
    body: { name, description: 'Test ecosystem' },
  });
  expectStatus(created, 201);
  const ecosystemId = created.body.data.id;
  for (const party of ['member', 'invited', 'rejected'] as const) {
    expectStatus(
      await h.call('POST', '/v1/ecosystem/invite-member', {
        token: tokens.lead,
        body: { orgId: ORG[party], ecosystemId },
      }),
      201,
    );
  }
  expectStatus(
    await h.call('POST', '/v1/ecosystem/update-invitation-status', {
      token: tokens.member,
      body: { status: 'accepted', ecosystemId },
    }),
    200,
  );
  expectStatus(
    await h.call('POST', '/v1/ecosystem/update-invitation-status', {
      token: tokens.rejected,
      body: { status: 'rejected', ecosystemId },
    }),
    200,
  );
  return { ecosystemId, tokens };
}

/** Creates an intent in the world's ecosystem as its lead and returns its id. */
export async function createIntentAsLead(h: Harness, world: World, name: string, description = ''): Promise<string> {
  const created: CallResult<Enveloped<Intent>> = await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
    token: world.tokens.lead,
    body: { name, description },
  });
  expectStatus(created, 201);
  return created.body.data.id;
}
