import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, QueueGroup, Subject } from '@tessera/contracts';
import { InProcessBus } from '@tessera/service-kit';
import { startHarness, type Harness } from './support/harness.js';
import { buildWorld, expectStatus, ORG, type World } from './support/world.js';

/** What the fake verifier knows: template id → owning organisation. */
const VERIFIER_TEMPLATES: Record<string, string> = {
  'vt-lead': ORG.lead,
  'vt-member': ORG.member,
  'vt-outsider': ORG.outsider,
  'vt-invited': ORG.invited,
};

describe('intent templates', () => {
  let h: Harness;
  let world: World;
  let intentId: string;
  let verifier: InProcessBus;
  let stopVerifier: () => void = () => {};
  const seenRequestIds: string[] = [];

  const startFakeVerifier = (mode: 'answer' | 'silent') => {
    stopVerifier();
    stopVerifier = verifier.respond(Subject.VERIFICATION_TEMPLATE_GET, QueueGroup.VERIFIER, async (payload, context) => {
      seenRequestIds.push(context.requestId);
      if (mode === 'silent') return new Promise(() => {});
      const { templateId } = payload as { templateId: string };
      const orgId = VERIFIER_TEMPLATES[templateId];
      if (!orgId) return { ok: false, error: { statusCode: 404, code: 'VERIFICATION_TEMPLATE_NOT_FOUND', message: `No template ${templateId}.` } };
      return { ok: true, data: { id: templateId, orgId, name: templateId, signerOption: 'X509_P256' } };
    });
  };

  beforeAll(async () => {
    h = await startHarness();
    world = await buildWorld(h);
    verifier = new InProcessBus(h.hub);
    startFakeVerifier('answer');
    intentId = (await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead, body: { name: 'Age check', description: '' } })).body.data.id;
  });
  afterAll(async () => {
    stopVerifier();
    await verifier.close();
    await h.close();
  });

  const post = (body: Record<string, unknown>, token = world.tokens.lead) => h.call('POST', `/v1/intent/${intentId}/template`, { token, body });

  it('creates an ecosystem-wide issuer template without asking the verifier', async () => {
    const before = seenRequestIds.length;
    const response = await post({ templateId: 'cred-template-1', role: 'issuer', description: 'The age credential' });
    expectStatus(response, 201);
    expect(response.body.data).toEqual({
      id: expect.any(String),
      intentId,
      templateId: 'cred-template-1',
      role: 'issuer',
      description: 'The age credential',
      orgId: null,
      createDateTime: expect.any(String),
      createdBy: 'user-lead',
      lastChangedDateTime: expect.any(String),
      lastChangedBy: 'user-lead',
    });
    expect(seenRequestIds.length).toBe(before);
  });

  it('checks verifier templates with the verifier, passing the request id along', async () => {
    const response = await h.call('POST', `/v1/intent/${intentId}/template`, {
      token: world.tokens.lead,
      body: { templateId: 'vt-lead', role: 'verifier' },
      headers: { 'x-request-id': 'trace-123' },
    });
    expectStatus(response, 201);
    expect(seenRequestIds.at(-1)).toBe('trace-123');
    expectStatus(await post({ templateId: 'vt-member', role: 'verifier', orgId: ORG.member }), 201);
  });

  it('refuses an unknown verifier template (400 VERIFICATION_TEMPLATE_NOT_FOUND) and one owned outside the ecosystem (400 TEMPLATE_OWNER_NOT_MEMBER)', async () => {
    expectStatus(await post({ templateId: 'vt-nope', role: 'verifier', orgId: ORG.lead }), 400, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
    expectStatus(await post({ templateId: 'vt-outsider', role: 'verifier', orgId: ORG.lead }), 400, ErrorCode.TEMPLATE_OWNER_NOT_MEMBER);
    expectStatus(await post({ templateId: 'vt-invited', role: 'verifier', orgId: ORG.lead }), 400, ErrorCode.TEMPLATE_OWNER_NOT_MEMBER);
  });

  it('refuses a second mapping for the same role and scope (409 INTENT_TEMPLATE_EXISTS)', async () => {
    expectStatus(await post({ templateId: 'vt-member', role: 'verifier' }), 409, ErrorCode.INTENT_TEMPLATE_EXISTS);
    expectStatus(await post({ templateId: 'vt-lead', role: 'verifier', orgId: ORG.member }), 409, ErrorCode.INTENT_TEMPLATE_EXISTS);
    expectStatus(await post({ templateId: 'other', role: 'issuer' }), 409, ErrorCode.INTENT_TEMPLATE_EXISTS);
  });

  it('only overrides for the lead or an active member (400)', async () => {
    for (const orgId of [ORG.invited, ORG.rejected, ORG.outsider, 'org-unknown']) {
      const response = await post({ templateId: 'x', role: 'issuer', orgId });
      expectStatus(response, 400, ErrorCode.VALIDATION_FAILED);
      expect(response.body.details[0].path).toBe('/orgId');
    }
  });

  it('validates template bodies', async () => {
    for (const body of [{}, { templateId: 'x' }, { templateId: 'x', role: 'holder' }, { templateId: '', role: 'issuer' }, { templateId: 'x', role: 'issuer', extra: true }]) {
      expectStatus(await post(body), 400, ErrorCode.VALIDATION_FAILED);
    }
  });

  it('lists the intent templates as a plain array for lead and member', async () => {
    const response = await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.member });
    expectStatus(response, 200);
    expect(Array.isArray(response.body.data)).toBe(true);
    expect(response.body.data.map((t: { templateId: string; orgId: string | null }) => [t.templateId, t.orgId])).toEqual([
      ['cred-template-1', null],
      ['vt-lead', null],
      ['vt-member', ORG.member],
    ]);
  });

  it('updates role and description, checking a template that becomes verifier-role', async () => {
    const list = (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data;
    const issuer = list.find((t: { templateId: string }) => t.templateId === 'cred-template-1');
    const kept = await h.call('PUT', `/v1/intent/${intentId}/template/${issuer.id}`, { token: world.tokens.lead, body: { role: 'issuer' } });
    expectStatus(kept, 200);
    expect(kept.body.data.description).toBe('The age credential');
    const toVerifier = await h.call('PUT', `/v1/intent/${intentId}/template/${issuer.id}`, { token: world.tokens.lead, body: { role: 'verifier', description: 'now verifying' } });
    expectStatus(toVerifier, 400, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
    const vtLead = list.find((t: { templateId: string }) => t.templateId === 'vt-lead');
    const clash = await h.call('PUT', `/v1/intent/${intentId}/template/${vtLead.id}`, { token: world.tokens.lead, body: { role: 'issuer' } });
    expectStatus(clash, 409, ErrorCode.INTENT_TEMPLATE_EXISTS);
    const described = await h.call('PUT', `/v1/intent/${intentId}/template/${vtLead.id}`, { token: world.tokens.lead, body: { role: 'verifier', description: 'Verifier side' } });
    expectStatus(described, 200);
    expect(described.body.data).toMatchObject({ id: vtLead.id, role: 'verifier', description: 'Verifier side', templateId: 'vt-lead' });
  });

  it('answers unknown, malformed and other intents\' template ids with 404 INTENT_TEMPLATE_NOT_FOUND', async () => {
    const otherIntent = (await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead, body: { name: 'Other', description: '' } })).body.data.id;
    const ofFirst = (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data[0].id;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', ofFirst]) {
      expectStatus(await h.call('PUT', `/v1/intent/${otherIntent}/template/${id}`, { token: world.tokens.lead, body: { role: 'issuer' } }), 404, ErrorCode.INTENT_TEMPLATE_NOT_FOUND);
      expectStatus(await h.call('DELETE', `/v1/intent/${otherIntent}/template/${id}`, { token: world.tokens.lead }), 404, ErrorCode.INTENT_TEMPLATE_NOT_FOUND);
    }
    expectStatus(await h.call('GET', '/v1/intent/nope/template', { token: world.tokens.lead }), 404, ErrorCode.INTENT_NOT_FOUND);
  });

  it('answers 503 DEPENDENCY_UNAVAILABLE when the verifier is silent for 2 s or absent, and stores nothing', async () => {
    startFakeVerifier('silent');
    const started = Date.now();
    expectStatus(await post({ templateId: 'vt-lead', role: 'verifier', orgId: ORG.lead }), 503, ErrorCode.DEPENDENCY_UNAVAILABLE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    stopVerifier();
    expectStatus(await post({ templateId: 'vt-lead', role: 'verifier', orgId: ORG.lead }), 503, ErrorCode.DEPENDENCY_UNAVAILABLE);
    const list = (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data;
    expect(list.some((t: { orgId: string | null }) => t.orgId === ORG.lead)).toBe(false);
  });
});
