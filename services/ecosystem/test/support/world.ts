import { expect } from 'vitest';
import type { Harness } from './harness.js';

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
    (Object.keys(ORG) as Party[]).map(async (party) => [party, await h.sign({ sub: `user-${party}`, email: emailOf(party), orgs: { [ORG[party]]: ['owner'] } })] as const),
  );
  return {
    ...(Object.fromEntries(entries) as Record<Party, string>),
    admin: await h.sign({ sub: 'user-admin', email: 'admin@example.org', platformAdmin: true }),
    nobody: await h.sign({ sub: 'user-nobody', email: 'nobody@example.org' }),
  };
}

/** Fails with the response body when the status is not the expected one (readable test failures). */
export function expectStatus(response: { status: number; body: unknown }, status: number, code?: string): void {
  expect({ status: response.status, code: (response.body as { code?: string } | undefined)?.code }, JSON.stringify(response.body)).toEqual({
    status,
    code: code ?? (response.body as { code?: string } | undefined)?.code,
  });
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
  for (const party of Object.keys(ORG) as Party[]) await registerOrganisation(h, tokens[party], ORG[party], `${party} organisation`);
  expectStatus(await h.call('POST', '/v1/invitations', { token: tokens.admin, body: { email: emailOf('lead') } }), 201);
  const created = await h.call('POST', `/v1/ecosystem/${ORG.lead}/create`, { token: tokens.lead, body: { name, description: 'Test ecosystem' } });
  expectStatus(created, 201);
  const ecosystemId = created.body.data.id as string;
  for (const party of ['member', 'invited', 'rejected'] as const) {
    expectStatus(await h.call('POST', '/v1/ecosystem/invite-member', { token: tokens.lead, body: { orgId: ORG[party], ecosystemId } }), 201);
  }
  expectStatus(await h.call('POST', '/v1/ecosystem/update-invitation-status', { token: tokens.member, body: { status: 'accepted', ecosystemId } }), 200);
  expectStatus(await h.call('POST', '/v1/ecosystem/update-invitation-status', { token: tokens.rejected, body: { status: 'rejected', ecosystemId } }), 200);
  return { ecosystemId, tokens };
}

/** A minimal valid notice body (ISO/IEC TS 27560 fields with DPV terms). */
export function noticeBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Age check at the counter',
    controller: { name: 'Lead Org', contact: 'privacy@lead.example' },
    purposes: [{ id: 'dpv:ServiceProvision', description: 'Check that the customer is of age' }],
    personalDataCategories: ['pd:Age'],
    processingOperations: ['dpv:Collect'],
    legalBasis: 'dpv:Consent',
    retention: { duration: 'P30D' },
    ...overrides,
  };
}
