import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ErrorCode, intentResolveRpc, type IntentResolveRequest, type IntentResolveResult } from '@tessera/contracts';
import { AppError, forbidden, notFound, serveRequests, type MessageBus } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { mdocQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';
import { ORG, type MemberCall } from '../support/management.js';
import { resolveAsWallet } from '../support/wallet.js';

// The cross-service path: the verifier asks `ecosystem.v1.intent.resolve` on its bus
// (the run's NATS server, or the in-process hub when there is none) and a stub
// ecosystem service answers on a peer connection of the same subject namespace.
const LEAD_ORG = 'org-lead';
const ECOSYSTEM = randomUUID();
const NOTICE = {
  id: randomUUID(),
  intentId: 'intent-1',
  version: 1,
  createdBy: 'lead-user',
  createDateTime: new Date().toISOString(),
  title: 'Age check',
  language: 'en',
  controller: { name: 'Acme', contact: 'privacy@acme.example' },
  purposes: [{ id: 'dpv:IdentityVerification', description: 'Check the holder is of age.' }],
  personalDataCategories: ['dpv:Age'],
  processingOperations: ['dpv:Use'],
  legalBasis: 'dpv:Consent',
  retention: { duration: 'P30D' },
};

/** The stub ecosystem service, and what the verifier asked it. */
interface EcosystemStub {
  bus: MessageBus;
  received: IntentResolveRequest[];
  /** The ecosystem lead's template `age-check` resolves to. */
  leadTemplateId: string;
  /** Starts answering `ecosystem.v1.intent.resolve` again after `stop`. */
  serve(): void;
  stop(): void;
}

// Sessions of ORG's verifier `desk`; the ecosystem lead's template is used by ORG but ORG signs with its own keys.
const test = harnessTest().extend(
  'ecosystem',
  { scope: 'file' },
  async ({ harness, api, desk: _desk }, { onCleanup }): Promise<EcosystemStub> => {
    const template = {
      name: 'Age',
      templateJson: { dcql: { query: mdocQuery() } },
      signerOption: 'X509_ED25519',
      clientIdPrefix: 'x509_san_dns',
    };
    const leadTemplateId = (
      await api('POST', `/v1/orgs/${LEAD_ORG}/oid4vp/verification-template`, template, { org: LEAD_ORG })
    ).body.data.id as string;
    const bus = await harness.connectPeer('ecosystem-stub');
    const received: IntentResolveRequest[] = [];
    const serve = () =>
      serveRequests(bus, intentResolveRpc, {
        logger: silentLogger(),
        handler: async (request): Promise<IntentResolveResult> => {
          received.push(request);
          if (request.intent === 'age-check')
            return {
              intentId: 'intent-1',
              intent: request.intent,
              templateId: leadTemplateId,
              scope: 'ecosystem',
              notice: NOTICE,
            };
          if (request.intent === 'gone')
            return { intentId: 'intent-2', intent: request.intent, templateId: randomUUID(), scope: 'organisation' };
          if (request.intent === 'outsider')
            throw forbidden('The organisation is not an active member of this ecosystem.', ErrorCode.NOT_A_MEMBER);
          if (request.intent === 'ecosystem-down')
            throw new AppError(404, ErrorCode.ECOSYSTEM_NOT_FOUND, 'No such ecosystem.');
          throw notFound('No such intent in this ecosystem.', ErrorCode.INTENT_NOT_FOUND);
        },
      });
    let stopServing = serve();
    await bus.ping();
    onCleanup(async () => {
      stopServing();
      await bus.close();
    });
    return {
      bus,
      received,
      leadTemplateId,
      serve: () => void (stopServing = serve()),
      stop: () => stopServing(),
    };
  },
);

const createIntent = (
  api: MemberCall,
  intent: string,
  extra: Record<string, unknown> = {},
  query = `verifierId=desk&ecosystemId=${ECOSYSTEM}`,
) =>
  api('POST', `/v1/orgs/${ORG}/oid4vp/intent-based-verification-presentation?${query}`, {
    intent,
    responseMode: 'direct_post',
    ...extra,
  });

describe('intent-based presentations', () => {
  test("resolves the intent, uses the template's query and signer, signs with the requesting organisation's key, returns the notice", async ({
    harness: h,
    api,
    ecosystem,
  }) => {
    const response = await createIntent(api, 'age-check');
    expect(response.status, response.raw).toBe(201);
    const data = response.body.data;
    expect(ecosystem.received.at(-1)).toEqual({
      ecosystemId: ECOSYSTEM,
      intent: 'age-check',
      orgId: ORG,
      role: 'verifier',
    });
    expect(data.clientId).toBe('x509_san_dns:verifier.tessera.test');
    expect(data.notice).toEqual(NOTICE);
    const resolved = await resolveAsWallet({
      app: h.app,
      caPem: h.ca.certificatePem,
      authorizationRequestUri: data.authorizationRequestUri,
    });
    expect(resolved.authorizationRequestPayload.dcql_query).toEqual({ credentials: mdocQuery().credentials });
    expect(resolved.jar?.jwt.header.alg).toBe('EdDSA');
    const leaf = (await api('GET', `/v1/orgs/${ORG}/oid4vp/certificates/ED25519`)).body.data;
    expect(resolved.jar?.jwt.header.x5c?.[0]).toBe(leaf.certificateChainPem.replace(/-----[A-Z ]+-----|\s/g, ''));
    const overridden = await createIntent(api, 'age-check', { requestSigner: { method: 'DID' } });
    expect(overridden.body.data.clientId).toMatch(/^decentralized_identifier:did:jwk:/);
  });

  test('takes dcApiProtocols as the direct body does: every protocol the template query allows, in order; checked before NATS', async ({
    api,
    ecosystem,
  }) => {
    const protocols = ['org-iso-mdoc', 'openid4vp-v1-unsigned', 'openid4vp-v1-multisigned', 'openid4vp-v1-signed'];
    const created = await createIntent(api, 'age-check', {
      responseMode: 'dc_api',
      expectedOrigins: ['https://rp.example'],
      dcApiProtocols: protocols,
    });
    expect(created.status, created.raw).toBe(201);
    expect(created.body.data.dcApiProtocols).toEqual(protocols);
    expect(created.body.data.dcApiRequests.map((request: { protocol: string }) => request.protocol)).toEqual(protocols);
    expect(created.body.data.dcApiRequest.protocol).toBe('openid4vp-v1-signed');
    expect(created.body.data.notice).toEqual(NOTICE);
    const before = ecosystem.received.length;
    const refused = await createIntent(api, 'age-check', { dcApiProtocols: ['openid4vp-v1-signed'] });
    expect(refused.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(refused.body.details[0].path).toBe('/dcApiProtocols');
    expect(ecosystem.received.length).toBe(before);
  });

  test('keeps the status and code of resolution errors, and answers 503 to a reply that breaks the contract', async ({
    api,
    ecosystem,
  }) => {
    expect((await createIntent(api, 'outsider')).body).toMatchObject({ statusCode: 403, code: 'NOT_A_MEMBER' });
    expect((await createIntent(api, 'unknown')).body).toMatchObject({ statusCode: 404, code: 'INTENT_NOT_FOUND' });
    expect((await createIntent(api, 'ecosystem-down')).body).toMatchObject({
      statusCode: 404,
      code: 'ECOSYSTEM_NOT_FOUND',
    });
    expect((await createIntent(api, 'gone')).body).toMatchObject({
      statusCode: 404,
      code: 'VERIFICATION_TEMPLATE_NOT_FOUND',
    });
    // A reply that breaks the contract: `serveRequests` checks its own replies, so only a raw responder can send one.
    ecosystem.stop();
    const stopBroken = ecosystem.bus.respond(intentResolveRpc.subject, intentResolveRpc.queue, async () => ({
      ok: true,
      data: { unexpected: true },
    }));
    await ecosystem.bus.ping();
    expect((await createIntent(api, 'broken')).body).toMatchObject({
      statusCode: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
      message: expect.stringMatching(/breaks the contract/),
    });
    stopBroken();
    ecosystem.serve();
    await ecosystem.bus.ping();
  });

  test('checks its own input before asking the ecosystem service', async ({ api, ecosystem }) => {
    const before = ecosystem.received.length;
    expect((await createIntent(api, 'age-check', {}, `verifierId=nobody&ecosystemId=${ECOSYSTEM}`)).body.code).toBe(
      'VERIFIER_NOT_FOUND',
    );
    expect((await createIntent(api, 'age-check', { responseMode: 'dc_api' })).body.code).toBe(
      'EXPECTED_ORIGINS_REQUIRED',
    );
    expect((await createIntent(api, 'age-check', { expectedOrigins: ['https://rp.example'] })).body.code).toBe(
      'EXPECTED_ORIGINS_NOT_ALLOWED',
    );
    expect((await createIntent(api, 'age-check', {}, 'verifierId=desk&ecosystemId=not-a-uuid')).status).toBe(400);
    expect((await createIntent(api, 'age-check', {}, 'verifierId=desk')).status).toBe(400);
    expect(
      (
        await api(
          'POST',
          `/v1/orgs/${ORG}/oid4vp/intent-based-verification-presentation?verifierId=desk&ecosystemId=${ECOSYSTEM}`,
          { responseMode: 'direct_post' },
        )
      ).status,
    ).toBe(400);
    expect(ecosystem.received.length).toBe(before);
  });

  test('refuses to delete a template an open session uses (409 TEMPLATE_IN_USE)', async ({ api, ecosystem }) => {
    expect((await createIntent(api, 'age-check')).status).toBe(201);
    const refused = await api(
      'DELETE',
      `/v1/orgs/${LEAD_ORG}/oid4vp/verification-template/${ecosystem.leadTemplateId}`,
      undefined,
      { org: LEAD_ORG },
    );
    expect(refused.body).toMatchObject({ statusCode: 409, code: 'TEMPLATE_IN_USE' });
  });

  test('answers 503 DEPENDENCY_UNAVAILABLE when nothing answers, and creates no session', async ({
    api,
    ecosystem,
  }) => {
    const count = async () =>
      (await api('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation`)).body.data.totalItems as number;
    const before = await count();
    ecosystem.stop();
    await ecosystem.bus.ping();
    const response = await createIntent(api, 'age-check');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: expect.stringMatching(/ecosystem service/),
    });
    expect(await count()).toBe(before);
  });
});
