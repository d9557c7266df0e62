import { sql, type SQL } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { missingServer } from '@tessera/service-kit/testing';
import { ecosystemTest as test } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { expectStatus } from '../support/responses.js';
import { ORG } from '../support/world.js';

// The races race-answers.test.ts does not run, and row counts for those it does (it
// checks statuses): exactly one winner, the others the documented conflict, no
// duplicate rows. Needs a PostgreSQL server.
const N = 6;
describe.skipIf(missingServer('postgres', 'ecosystem races leave one row'))(
  'ecosystem concurrency: one winner, no duplicate rows',
  () => {
    async function rows(h: Harness, query: SQL): Promise<number> {
      const result = (await h.database.db.execute(query)) as unknown as
        Array<{ n: number | string }> | { rows: Array<{ n: number | string }> };
      return Number((Array.isArray(result) ? result : result.rows)[0]!.n);
    }

    test('two leads creating ecosystems with one name (any case) at once: one 201, the rest 409 ECOSYSTEM_NAME_TAKEN, one row', async ({
      harness: h,
      world,
    }) => {
      const leads = await Promise.all(
        Array.from({ length: N }, async (_, i) => {
          const org = `org-racing-lead-${i}`;
          const token = await h.idp.mint({
            sub: `user-racing-${i}`,
            email: `racing-${i}@example.org`,
            orgRoles: { [org]: ['owner'] },
          });
          await h.call('PUT', `/v1/organisations/${org}`, { token, body: { name: `Racer ${i}` } });
          expectStatus(
            await h.call('POST', '/v1/invitations', {
              token: world.tokens.admin,
              body: { email: `racing-${i}@example.org` },
            }),
            201,
          );
          return { org, token };
        }),
      );
      const results = await Promise.all(
        leads.map(({ org, token }, i) =>
          h.call('POST', `/v1/ecosystem/${org}/create`, {
            token,
            body: { name: i % 2 ? 'Racing Space' : 'RACING SPACE', description: '' },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== 201))
        expectStatus(loser, 409, ErrorCode.ECOSYSTEM_NAME_TAKEN);
      expect(
        await rows(h, sql`select count(*) as n from ecosystem.ecosystems where lower(name) = 'racing space'`),
      ).toBe(1);
      // The losers' invitations are still pending and their organisations lead nothing.
      expect(
        await rows(
          h,
          sql`select count(*) as n from ecosystem.invitations where type = 'ecosystem' and status = 'pending' and email like 'racing-%'`,
        ),
      ).toBe(N - 1);
      expect(
        await rows(h, sql`select count(*) as n from ecosystem.memberships where org_id like 'org-racing-lead-%'`),
      ).toBe(1);
    });

    test('simultaneous identical intent templates: one 201, the rest 409 INTENT_TEMPLATE_EXISTS, one row (ecosystem-wide and per organisation)', async ({
      harness: h,
      world,
    }) => {
      const intentId = (
        await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
          token: world.tokens.lead,
          body: { name: 'Templated', description: '' },
        })
      ).body.data.id as string;
      for (const orgId of [undefined, ORG.member]) {
        const results = await Promise.all(
          Array.from({ length: N }, (_, i) =>
            h.call('POST', `/v1/intent/${intentId}/template`, {
              token: world.tokens.lead,
              body: { templateId: `tpl-${i}`, role: 'issuer', ...(orgId ? { orgId } : {}) },
            }),
          ),
        );
        expect(results.filter((r) => r.status === 201)).toHaveLength(1);
        for (const loser of results.filter((r) => r.status !== 201))
          expectStatus(loser, 409, ErrorCode.INTENT_TEMPLATE_EXISTS);
      }
      expect(
        await rows(
          h,
          sql`select count(*) as n from ecosystem.intent_templates where intent_id = ${intentId} and org_id is null`,
        ),
      ).toBe(1);
      expect(
        await rows(
          h,
          sql`select count(*) as n from ecosystem.intent_templates where intent_id = ${intentId} and org_id = ${ORG.member}`,
        ),
      ).toBe(1);
    });

    test('same-name intents, accepts of one invitation, member invitations: one row each under races', async ({
      harness: h,
      world,
    }) => {
      const intents = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
            token: world.tokens.lead,
            body: { name: i % 2 ? 'Twin' : 'twin', description: '' },
          }),
        ),
      );
      expect(intents.filter((r) => r.status === 201)).toHaveLength(1);
      expect(
        await rows(
          h,
          sql`select count(*) as n from ecosystem.intents where ecosystem_id = ${world.ecosystemId} and lower(name) = 'twin'`,
        ),
      ).toBe(1);

      const accepts = await Promise.all(
        Array.from({ length: N }, () =>
          h.call('POST', '/v1/ecosystem/update-invitation-status', {
            token: world.tokens.invited,
            body: { status: 'accepted', ecosystemId: world.ecosystemId },
          }),
        ),
      );
      expect(accepts.filter((r) => r.status === 200)).toHaveLength(1);
      for (const loser of accepts.filter((r) => r.status !== 200))
        expectStatus(loser, 409, ErrorCode.INVITATION_NOT_PENDING);
      expect(
        await rows(
          h,
          sql`select count(*) as n from ecosystem.memberships where ecosystem_id = ${world.ecosystemId} and org_id = ${ORG.invited}`,
        ),
      ).toBe(1);

      const invites = await Promise.all(
        Array.from({ length: N }, () =>
          h.call('POST', '/v1/ecosystem/invite-member', {
            token: world.tokens.lead,
            body: { orgId: ORG.outsider, ecosystemId: world.ecosystemId },
          }),
        ),
      );
      expect(invites.filter((r) => r.status === 201)).toHaveLength(1);
      expect(
        await rows(
          h,
          sql`select count(*) as n from ecosystem.invitations where ecosystem_id = ${world.ecosystemId} and invited_org = ${ORG.outsider}`,
        ),
      ).toBe(1);
    });

    test('an accept racing the re-invitation of a rejected organisation ends with at most one membership', async ({
      harness: h,
      world,
    }) => {
      const results = await Promise.all([
        h.call('POST', '/v1/ecosystem/invite-member', {
          token: world.tokens.lead,
          body: { orgId: ORG.rejected, ecosystemId: world.ecosystemId },
        }),
        ...Array.from({ length: N - 1 }, () =>
          h.call('POST', '/v1/ecosystem/update-invitation-status', {
            token: world.tokens.rejected,
            body: { status: 'accepted', ecosystemId: world.ecosystemId },
          }),
        ),
      ]);
      expect(results[0]!.status).toBe(201);
      const accepted = results.slice(1).filter((r) => r.status === 200).length;
      expect(accepted).toBeLessThanOrEqual(1);
      for (const loser of results.slice(1).filter((r) => r.status !== 200))
        expectStatus(loser, 409, ErrorCode.INVITATION_NOT_PENDING);
      expect(
        await rows(
          h,
          sql`select count(*) as n from ecosystem.memberships where ecosystem_id = ${world.ecosystemId} and org_id = ${ORG.rejected}`,
        ),
      ).toBe(accepted);
    });
  },
);
