import { describe, expect } from 'vitest';
import { Value } from 'typebox/value';
import {
  ErrorCode,
  intentResolveRpc,
  IntentResolveResultSchema,
  Subject,
  verificationTemplateGetRpc,
} from '@tessera/contracts';
import { callService, serveRequests, type MessageBus } from '@tessera/service-kit';
import { createTestBusNamespace, missingServer, silentLogger, waitFor } from '@tessera/service-kit/testing';
import { findOrganisation } from '../../src/db/organisations.js';
import { harnessTest } from '../support/fixtures.js';
import { noticeBody } from '../support/notice-body.js';
import { expectStatus } from '../support/responses.js';
import { createIntentAsLead, ORG } from '../support/world.js';

// The app, a resolve client and a stub verifier on a real NATS server, under a subject
// prefix of their own so that other test files' responders cannot answer.
const buses = createTestBusNamespace();

const test = harnessTest(async () => ({ bus: await buses.connect('ecosystem-under-test') }))
  .extend('client', { scope: 'file' }, async ({}, { onCleanup }): Promise<MessageBus> => {
    const client = await buses.connect('resolve-client');
    onCleanup(() => client.close());
    return client;
  })
  // An intent 'Age Check' with issuer and verifier mappings and a notice, and a bare intent: made before any test (auto).
  .extend('ageCheckIntent', { scope: 'file', auto: true }, async ({ harness: h, world }, { onCleanup }) => {
    // The verifier-role templates are checked with a stub verifier answering on this NATS server.
    const verifierStub = await buses.connect('verifier-stub');
    const stop = serveRequests(verifierStub, verificationTemplateGetRpc, {
      logger: silentLogger(),
      handler: async ({ templateId }) => ({
        id: templateId,
        orgId: templateId === 'tpl-member' ? ORG.member : ORG.lead,
        name: templateId,
        signerOption: 'DID' as const,
      }),
    });
    onCleanup(async () => {
      stop();
      await verifierStub.close();
    });
    const lead = world.tokens.lead;
    const intentId = await createIntentAsLead(h, world, 'Age Check');
    expectStatus(
      await h.call('POST', `/v1/intent/${intentId}/template`, {
        token: lead,
        body: { templateId: 'cred-issuer', role: 'issuer' },
      }),
      201,
    );
    expectStatus(
      await h.call('POST', `/v1/intent/${intentId}/template`, {
        token: lead,
        body: { templateId: 'tpl-global', role: 'verifier' },
      }),
      201,
    );
    expectStatus(
      await h.call('POST', `/v1/intent/${intentId}/template`, {
        token: lead,
        body: { templateId: 'tpl-member', role: 'verifier', orgId: ORG.member },
      }),
      201,
    );
    expectStatus(await h.call('POST', `/v1/intent/${intentId}/notice`, { token: lead, body: noticeBody() }), 201);
    await createIntentAsLead(h, world, 'Bare');
    return intentId;
  });

describe.skipIf(missingServer('nats', 'ecosystem intent resolution over NATS'))(
  'intent resolution and organisation events over NATS',
  () => {
    const resolve = (client: MessageBus, request: Record<string, unknown>) =>
      client.request(Subject.INTENT_RESOLVE, request);

    test('resolves an organisation override before the ecosystem-wide mapping, matching names ignoring case', async ({
      client,
      world,
    }) => {
      const reply = (await resolve(client, {
        ecosystemId: world.ecosystemId,
        intent: 'age check',
        orgId: ORG.member,
        role: 'verifier',
      })) as { ok: boolean; data: unknown };
      expect(reply).toMatchObject({
        ok: true,
        data: { intent: 'Age Check', templateId: 'tpl-member', scope: 'organisation' },
      });
      expect(Value.Check(IntentResolveResultSchema, reply.data)).toBe(true);
      expect(reply.data).toMatchObject({
        notice: { version: 1, title: 'Age check at the counter', legalBasis: 'dpv:Consent' },
      });
    });

    test('falls back to the ecosystem-wide mapping for the lead and works through callService', async ({
      client,
      world,
    }) => {
      const data = await callService(client, intentResolveRpc, {
        ecosystemId: world.ecosystemId,
        intent: 'AGE CHECK',
        orgId: ORG.lead,
        role: 'verifier',
      });
      expect(data).toMatchObject({ templateId: 'tpl-global', scope: 'ecosystem' });
    });

    test("carries the ecosystem's trust policy, and a policy change as soon as it commits (the resolution cache is emptied)", async ({
      harness: h,
      client,
      world,
    }) => {
      const request = {
        ecosystemId: world.ecosystemId,
        intent: 'Age Check',
        orgId: ORG.member,
        role: 'verifier' as const,
      };
      expect(await callService(client, intentResolveRpc, request)).toMatchObject({ trustPolicy: 'organisation' });
      expectStatus(
        await h.call('PUT', `/v1/ecosystem/${world.ecosystemId}/trust-policy`, {
          token: world.tokens.lead,
          body: { policy: 'ecosystem' },
        }),
        200,
      );
      await waitFor(
        async () => (await callService(client, intentResolveRpc, request)).trustPolicy === 'ecosystem',
        2000,
        'policy ecosystem in resolutions',
      );
      expectStatus(
        await h.call('PUT', `/v1/ecosystem/${world.ecosystemId}/trust-policy`, {
          token: world.tokens.lead,
          body: { policy: 'organisation' },
        }),
        200,
      );
      await waitFor(
        async () => (await callService(client, intentResolveRpc, request)).trustPolicy === 'organisation',
        2000,
        'policy organisation in resolutions',
      );
    });

    test('refuses organisations that are not lead or active member with 403 NOT_A_MEMBER', async ({
      client,
      world,
    }) => {
      for (const orgId of [ORG.invited, ORG.rejected, ORG.outsider, 'org-unknown']) {
        expect(
          await resolve(client, { ecosystemId: world.ecosystemId, intent: 'Age Check', orgId, role: 'verifier' }),
        ).toMatchObject({ ok: false, error: { statusCode: 403, code: ErrorCode.NOT_A_MEMBER } });
      }
    });

    test('answers unknown ecosystems, intents and mappings with their 404 codes', async ({ client, world }) => {
      expect(
        await resolve(client, {
          ecosystemId: '00000000-0000-4000-8000-000000000000',
          intent: 'Age Check',
          orgId: ORG.lead,
          role: 'verifier',
        }),
      ).toMatchObject({
        ok: false,
        error: { statusCode: 404, code: ErrorCode.ECOSYSTEM_NOT_FOUND },
      });
      expect(
        await resolve(client, { ecosystemId: world.ecosystemId, intent: 'Unknown', orgId: ORG.lead, role: 'verifier' }),
      ).toMatchObject({ ok: false, error: { statusCode: 404, code: ErrorCode.INTENT_NOT_FOUND } });
      expect(
        await resolve(client, { ecosystemId: world.ecosystemId, intent: 'bare', orgId: ORG.member, role: 'verifier' }),
      ).toMatchObject({
        ok: false,
        error: { statusCode: 404, code: ErrorCode.INTENT_TEMPLATE_NOT_FOUND },
      });
    });

    test('answers malformed requests with 400 VALIDATION_FAILED', async ({ client, world }) => {
      for (const request of [
        {},
        { ecosystemId: 'nope', intent: 'x', orgId: 'o', role: 'verifier' },
        { ecosystemId: world.ecosystemId, intent: 'x', orgId: 'o', role: 'issuer' },
      ]) {
        expect(await resolve(client, request)).toMatchObject({
          ok: false,
          error: { statusCode: 400, code: ErrorCode.VALIDATION_FAILED },
        });
      }
      expect(
        await resolve(client, {
          ecosystemId: 'urn:uuid:00000000-0000-4000-8000-000000000000',
          intent: 'x',
          orgId: 'o',
          role: 'verifier',
        }),
      ).toMatchObject({ ok: false });
    });

    test('fills the organisation directory from platform.v1.organisation.upserted and drops malformed events', async ({
      harness: h,
      client,
      world,
    }) => {
      client.publish(Subject.ORGANISATION_UPSERTED, { id: 'org-from-event', name: 'Evented' });
      client.publish(Subject.ORGANISATION_UPSERTED, {
        id: 'org-from-event',
        name: ' Evented Org ',
        ownerUserId: 'user-e',
        ownerEmail: 'e@example.org',
      });
      await waitFor(
        async () => (await findOrganisation(h.database.db, 'org-from-event')) !== undefined,
        1000,
        'the organisation from the event',
      );
      expect(await findOrganisation(h.database.db, 'org-from-event')).toMatchObject({
        id: 'org-from-event',
        name: 'Evented Org',
        ownerUserId: 'user-e',
        ownerEmail: 'e@example.org',
      });
      expectStatus(
        await h.call('POST', '/v1/ecosystem/invite-member', {
          token: world.tokens.lead,
          body: { orgId: 'org-from-event', ecosystemId: world.ecosystemId },
        }),
        201,
      );
    });
  },
);
