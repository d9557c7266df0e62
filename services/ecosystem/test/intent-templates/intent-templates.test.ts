import { describe, expect } from 'vitest';
import { ErrorCode, verificationTemplateGetRpc } from '@tessera/contracts';
import { AppError, InProcessBus, serveRequests } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { expectStatus } from '../support/responses.js';
import { createIntentAsLead, ORG, type World } from '../support/world.js';

/** What the fake verifier knows: template id → owning organisation. */
const VERIFIER_TEMPLATES: Record<string, string> = {
  'vt-lead': ORG.lead,
  'vt-member': ORG.member,
  'vt-outsider': ORG.outsider,
  'vt-invited': ORG.invited,
};

/** The verifier's side of `verifier.v1.verification-template.get`, on the harness's in-process hub. */
interface FakeVerifier {
  /** The request ids the verifier saw, in order. */
  seenRequestIds: string[];
  /** Takes requests and never answers (it answers from VERIFIER_TEMPLATES until then). */
  staySilent(): void;
  /** Stops answering: no responder at all. */
  stop(): void;
}

const test = harnessTest()
  // Up for every test (auto), as a verifier service would be.
  .extend('verifier', { scope: 'file', auto: true }, async ({ harness }, { onCleanup }): Promise<FakeVerifier> => {
    const bus = new InProcessBus(harness.hub);
    const seenRequestIds: string[] = [];
    let stopServing: () => void = () => {};
    const serve = (silent: boolean) => {
      stopServing();
      stopServing = serveRequests(bus, verificationTemplateGetRpc, {
        logger: silentLogger(),
        handler: async ({ templateId }, context) => {
          seenRequestIds.push(context.requestId);
          if (silent) return new Promise(() => {});
          const orgId = VERIFIER_TEMPLATES[templateId];
          if (!orgId) throw new AppError(404, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND, `No template ${templateId}.`);
          return { id: templateId, orgId, name: templateId, signerOption: 'X509_P256' as const };
        },
      });
    };
    onCleanup(async () => {
      stopServing();
      await bus.close();
    });
    serve(false);
    return { seenRequestIds, staySilent: () => serve(true), stop: () => stopServing() };
  })
  .extend('intentId', { scope: 'file' }, async ({ harness, world }) => createIntentAsLead(harness, world, 'Age check'));

// Tests continue from one another: the intent's templates accumulate.
describe('intent templates', () => {
  const post = (h: Harness, world: World, intentId: string, body: Record<string, unknown>) =>
    h.call('POST', `/v1/intent/${intentId}/template`, { token: world.tokens.lead, body });

  test('creates an ecosystem-wide issuer template without asking the verifier', async ({
    harness: h,
    world,
    verifier,
    intentId,
  }) => {
    const before = verifier.seenRequestIds.length;
    const response = await post(h, world, intentId, {
      templateId: 'cred-template-1',
      role: 'issuer',
      description: 'The age credential',
    });
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
    expect(verifier.seenRequestIds.length).toBe(before);
  });

  test('checks verifier templates with the verifier, passing the request id along', async ({
    harness: h,
    world,
    verifier,
    intentId,
  }) => {
    const response = await h.call('POST', `/v1/intent/${intentId}/template`, {
      token: world.tokens.lead,
      body: { templateId: 'vt-lead', role: 'verifier' },
      headers: { 'x-request-id': 'trace-123' },
    });
    expectStatus(response, 201);
    expect(verifier.seenRequestIds.at(-1)).toBe('trace-123');
    expectStatus(await post(h, world, intentId, { templateId: 'vt-member', role: 'verifier', orgId: ORG.member }), 201);
  });

  test('refuses an unknown verifier template (400 VERIFICATION_TEMPLATE_NOT_FOUND) and one owned outside the ecosystem (400 TEMPLATE_OWNER_NOT_MEMBER)', async ({
    harness: h,
    world,
    intentId,
  }) => {
    expectStatus(
      await post(h, world, intentId, { templateId: 'vt-nope', role: 'verifier', orgId: ORG.lead }),
      400,
      ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND,
    );
    expectStatus(
      await post(h, world, intentId, { templateId: 'vt-outsider', role: 'verifier', orgId: ORG.lead }),
      400,
      ErrorCode.TEMPLATE_OWNER_NOT_MEMBER,
    );
    expectStatus(
      await post(h, world, intentId, { templateId: 'vt-invited', role: 'verifier', orgId: ORG.lead }),
      400,
      ErrorCode.TEMPLATE_OWNER_NOT_MEMBER,
    );
  });

  test('refuses a second mapping for the same role and scope (409 INTENT_TEMPLATE_EXISTS)', async ({
    harness: h,
    world,
    intentId,
  }) => {
    expectStatus(
      await post(h, world, intentId, { templateId: 'vt-member', role: 'verifier' }),
      409,
      ErrorCode.INTENT_TEMPLATE_EXISTS,
    );
    expectStatus(
      await post(h, world, intentId, { templateId: 'vt-lead', role: 'verifier', orgId: ORG.member }),
      409,
      ErrorCode.INTENT_TEMPLATE_EXISTS,
    );
    expectStatus(
      await post(h, world, intentId, { templateId: 'other', role: 'issuer' }),
      409,
      ErrorCode.INTENT_TEMPLATE_EXISTS,
    );
  });

  test('only overrides for the lead or an active member (400)', async ({ harness: h, world, intentId }) => {
    for (const orgId of [ORG.invited, ORG.rejected, ORG.outsider, 'org-unknown']) {
      const response = await post(h, world, intentId, { templateId: 'x', role: 'issuer', orgId });
      expectStatus(response, 400, ErrorCode.VALIDATION_FAILED);
      expect(response.body.details[0].path).toBe('/orgId');
    }
  });

  test('validates template bodies', async ({ harness: h, world, intentId }) => {
    for (const body of [
      {},
      { templateId: 'x' },
      { templateId: 'x', role: 'holder' },
      { templateId: '', role: 'issuer' },
      { templateId: 'x', role: 'issuer', extra: true },
    ]) {
      expectStatus(await post(h, world, intentId, body), 400, ErrorCode.VALIDATION_FAILED);
    }
  });

  test('lists the intent templates as a plain array for lead and member', async ({ harness: h, world, intentId }) => {
    const response = await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.member });
    expectStatus(response, 200);
    expect(Array.isArray(response.body.data)).toBe(true);
    expect(
      response.body.data.map((t: { templateId: string; orgId: string | null }) => [t.templateId, t.orgId]),
    ).toEqual([
      ['cred-template-1', null],
      ['vt-lead', null],
      ['vt-member', ORG.member],
    ]);
  });

  test('updates role and description, checking a template that becomes verifier-role', async ({
    harness: h,
    world,
    intentId,
  }) => {
    const list = (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data;
    const issuer = list.find((t: { templateId: string }) => t.templateId === 'cred-template-1');
    const kept = await h.call('PUT', `/v1/intent/${intentId}/template/${issuer.id}`, {
      token: world.tokens.lead,
      body: { role: 'issuer' },
    });
    expectStatus(kept, 200);
    expect(kept.body.data.description).toBe('The age credential');
    const toVerifier = await h.call('PUT', `/v1/intent/${intentId}/template/${issuer.id}`, {
      token: world.tokens.lead,
      body: { role: 'verifier', description: 'now verifying' },
    });
    expectStatus(toVerifier, 400, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
    const vtLead = list.find((t: { templateId: string }) => t.templateId === 'vt-lead');
    const clash = await h.call('PUT', `/v1/intent/${intentId}/template/${vtLead.id}`, {
      token: world.tokens.lead,
      body: { role: 'issuer' },
    });
    expectStatus(clash, 409, ErrorCode.INTENT_TEMPLATE_EXISTS);
    const described = await h.call('PUT', `/v1/intent/${intentId}/template/${vtLead.id}`, {
      token: world.tokens.lead,
      body: { role: 'verifier', description: 'Verifier side' },
    });
    expectStatus(described, 200);
    expect(described.body.data).toMatchObject({
      id: vtLead.id,
      role: 'verifier',
      description: 'Verifier side',
      templateId: 'vt-lead',
    });
  });

  test("answers unknown, malformed and other intents' template ids with 404 INTENT_TEMPLATE_NOT_FOUND", async ({
    harness: h,
    world,
    intentId,
  }) => {
    const otherIntent = (
      await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
        token: world.tokens.lead,
        body: { name: 'Other', description: '' },
      })
    ).body.data.id;
    const ofFirst = (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data[0]
      .id;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', ofFirst]) {
      expectStatus(
        await h.call('PUT', `/v1/intent/${otherIntent}/template/${id}`, {
          token: world.tokens.lead,
          body: { role: 'issuer' },
        }),
        404,
        ErrorCode.INTENT_TEMPLATE_NOT_FOUND,
      );
      expectStatus(
        await h.call('DELETE', `/v1/intent/${otherIntent}/template/${id}`, { token: world.tokens.lead }),
        404,
        ErrorCode.INTENT_TEMPLATE_NOT_FOUND,
      );
    }
    expectStatus(
      await h.call('GET', '/v1/intent/nope/template', { token: world.tokens.lead }),
      404,
      ErrorCode.INTENT_NOT_FOUND,
    );
  });

  test('answers 503 DEPENDENCY_UNAVAILABLE when the verifier is silent for 2 s or absent, and stores nothing', async ({
    harness: h,
    world,
    verifier,
    intentId,
  }) => {
    verifier.staySilent();
    const started = Date.now();
    expectStatus(
      await post(h, world, intentId, { templateId: 'vt-lead', role: 'verifier', orgId: ORG.lead }),
      503,
      ErrorCode.DEPENDENCY_UNAVAILABLE,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    verifier.stop();
    expectStatus(
      await post(h, world, intentId, { templateId: 'vt-lead', role: 'verifier', orgId: ORG.lead }),
      503,
      ErrorCode.DEPENDENCY_UNAVAILABLE,
    );
    const list = (await h.call('GET', `/v1/intent/${intentId}/template`, { token: world.tokens.lead })).body.data;
    expect(list.some((t: { orgId: string | null }) => t.orgId === ORG.lead)).toBe(false);
  });
});
