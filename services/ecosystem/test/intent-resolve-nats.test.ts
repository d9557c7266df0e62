import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, intentResolveRpc, IntentResolveResultSchema, QueueGroup, Subject } from '@tessera/contracts';
import { callService, type MessageBus } from '@tessera/service-kit';
import { connectTestBus, missingServer } from '@tessera/service-kit/testing';
import { Value } from 'typebox/value';
import { findOrganisation } from '../src/db/organisations.js';
import { startHarness, type Harness } from './support/harness.js';
import { buildWorld, expectStatus, noticeBody, ORG, type World } from './support/world.js';

describe.skipIf(missingServer('nats', 'ecosystem intent resolution over NATS'))('intent resolution and organisation events over NATS', () => {
  let h: Harness;
  let world: World;
  let client: MessageBus;
  let verifierStub: MessageBus;
  const stops: Array<() => void> = [];

  const resolve = (request: Record<string, unknown>) => client.request(Subject.INTENT_RESOLVE, request);

  beforeAll(async () => {
    const appBus = await connectTestBus('ecosystem-under-test');
    h = await startHarness({ bus: appBus });
    client = await connectTestBus('resolve-client');
    verifierStub = await connectTestBus('verifier-stub');
    world = await buildWorld(h);
    const lead = world.tokens.lead;
    const intentId = (await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: lead, body: { name: 'Age Check', description: '' } })).body.data.id;
    expectStatus(await h.call('POST', `/v1/intent/${intentId}/template`, { token: lead, body: { templateId: 'cred-issuer', role: 'issuer' } }), 201);
    // The verifier-role templates are checked with a stub verifier answering on this NATS server.
    stops.push(
      verifierStub.respond(Subject.VERIFICATION_TEMPLATE_GET, QueueGroup.VERIFIER, async (payload) => {
        const { templateId } = payload as { templateId: string };
        return { ok: true, data: { id: templateId, orgId: templateId === 'tpl-member' ? ORG.member : ORG.lead, name: templateId, signerOption: 'DID' } };
      }),
    );
    expectStatus(await h.call('POST', `/v1/intent/${intentId}/template`, { token: lead, body: { templateId: 'tpl-global', role: 'verifier' } }), 201);
    expectStatus(await h.call('POST', `/v1/intent/${intentId}/template`, { token: lead, body: { templateId: 'tpl-member', role: 'verifier', orgId: ORG.member } }), 201);
    expectStatus(await h.call('POST', `/v1/intent/${intentId}/notice`, { token: lead, body: noticeBody() }), 201);
    await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: lead, body: { name: 'Bare', description: '' } });
  });
  afterAll(async () => {
    for (const stop of stops) stop();
    await client.close();
    await verifierStub.close();
    await h.close();
  });

  it('resolves an organisation override before the ecosystem-wide mapping, matching names ignoring case', async () => {
    const reply = (await resolve({ ecosystemId: world.ecosystemId, intent: 'age check', orgId: ORG.member, role: 'verifier' })) as { ok: boolean; data: unknown };
    expect(reply).toMatchObject({ ok: true, data: { intent: 'Age Check', templateId: 'tpl-member', scope: 'organisation' } });
    expect(Value.Check(IntentResolveResultSchema, reply.data)).toBe(true);
    expect(reply.data).toMatchObject({ notice: { version: 1, title: 'Age check at the counter', legalBasis: 'dpv:Consent' } });
  });

  it('falls back to the ecosystem-wide mapping for the lead and works through callService', async () => {
    const data = await callService(client, intentResolveRpc, { ecosystemId: world.ecosystemId, intent: 'AGE CHECK', orgId: ORG.lead, role: 'verifier' });
    expect(data).toMatchObject({ templateId: 'tpl-global', scope: 'ecosystem' });
  });

  it('refuses organisations that are not lead or active member with 403 NOT_A_MEMBER', async () => {
    for (const orgId of [ORG.invited, ORG.rejected, ORG.outsider, 'org-unknown']) {
      expect(await resolve({ ecosystemId: world.ecosystemId, intent: 'Age Check', orgId, role: 'verifier' })).toMatchObject({ ok: false, error: { statusCode: 403, code: ErrorCode.NOT_A_MEMBER } });
    }
  });

  it('answers unknown ecosystems, intents and mappings with their 404 codes', async () => {
    expect(await resolve({ ecosystemId: '00000000-0000-4000-8000-000000000000', intent: 'Age Check', orgId: ORG.lead, role: 'verifier' })).toMatchObject({
      ok: false,
      error: { statusCode: 404, code: ErrorCode.ECOSYSTEM_NOT_FOUND },
    });
    expect(await resolve({ ecosystemId: world.ecosystemId, intent: 'Unknown', orgId: ORG.lead, role: 'verifier' })).toMatchObject({ ok: false, error: { statusCode: 404, code: ErrorCode.INTENT_NOT_FOUND } });
    expect(await resolve({ ecosystemId: world.ecosystemId, intent: 'bare', orgId: ORG.member, role: 'verifier' })).toMatchObject({
      ok: false,
      error: { statusCode: 404, code: ErrorCode.INTENT_TEMPLATE_NOT_FOUND },
    });
  });

  it('answers malformed requests with 400 VALIDATION_FAILED', async () => {
    for (const request of [{}, { ecosystemId: 'nope', intent: 'x', orgId: 'o', role: 'verifier' }, { ecosystemId: world.ecosystemId, intent: 'x', orgId: 'o', role: 'issuer' }]) {
      expect(await resolve(request)).toMatchObject({ ok: false, error: { statusCode: 400, code: ErrorCode.VALIDATION_FAILED } });
    }
    expect(await resolve({ ecosystemId: 'urn:uuid:00000000-0000-4000-8000-000000000000', intent: 'x', orgId: 'o', role: 'verifier' })).toMatchObject({ ok: false });
  });

  it('fills the organisation directory from platform.v1.organisation.upserted and drops malformed events', async () => {
    client.publish(Subject.ORGANISATION_UPSERTED, { id: 'org-from-event', name: 'Evented' });
    client.publish(Subject.ORGANISATION_UPSERTED, { id: 'org-from-event', name: ' Evented Org ', ownerUserId: 'user-e', ownerEmail: 'e@example.org' });
    let found: Awaited<ReturnType<typeof findOrganisation>>;
    for (let i = 0; i < 50 && !found; i++) {
      found = await findOrganisation(h.testDb.database.db, 'org-from-event');
      if (!found) await new Promise((r) => setTimeout(r, 20));
    }
    expect(found).toMatchObject({ id: 'org-from-event', name: 'Evented Org', ownerUserId: 'user-e', ownerEmail: 'e@example.org' });
    expectStatus(await h.call('POST', '/v1/ecosystem/invite-member', { token: world.tokens.lead, body: { orgId: 'org-from-event', ecosystemId: world.ecosystemId } }), 201);
  });
});
