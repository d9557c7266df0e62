import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, intentResolveRpc, NatsReply, Subject, VerificationTemplateSummarySchema, type IntentResolveRequest, type IntentResolveResult } from '@tessera/contracts';
import { AppError, forbidden, notFound, serveRequests, type MessageBus } from '@tessera/service-kit';
import { missingServer, silentLogger } from '@tessera/service-kit/testing';
import { Value } from 'typebox/value';
import { createHarness, type Harness } from '../support/harness.js';
import { mdocQuery, ORG } from '../support/dcql-queries.js';
import { resolveAsWallet } from '../support/wallet.js';

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

describe.skipIf(missingServer('nats', 'verifier intent-based presentations'))('intent-based presentations over NATS', () => {
  let h: Harness;
  let ecosystem: MessageBus;
  let stop: () => void;
  let leadTemplateId: string;
  const received: IntentResolveRequest[] = [];

  async function send(method: string, url: string, payload?: unknown, org = ORG) {
    return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
  }
  const createIntent = (intent: string, extra: Record<string, unknown> = {}, query = `verifierId=desk&ecosystemId=${ECOSYSTEM}`) =>
    send('POST', `/v1/orgs/${ORG}/oid4vp/intent-based-verification-presentation?${query}`, { intent, responseMode: 'direct_post', ...extra });

  const serveIntentResolve = () =>
    serveRequests(ecosystem, intentResolveRpc, {
      logger: silentLogger(),
      handler: async (request): Promise<IntentResolveResult> => {
        received.push(request);
        if (request.intent === 'age-check') return { intentId: 'intent-1', intent: request.intent, templateId: leadTemplateId, scope: 'ecosystem', notice: NOTICE };
        if (request.intent === 'gone') return { intentId: 'intent-2', intent: request.intent, templateId: randomUUID(), scope: 'organisation' };
        if (request.intent === 'outsider') throw forbidden('The organisation is not an active member of this ecosystem.', ErrorCode.NOT_A_MEMBER);
        if (request.intent === 'ecosystem-down') throw new AppError(404, ErrorCode.ECOSYSTEM_NOT_FOUND, 'No such ecosystem.');
        throw notFound('No such intent in this ecosystem.', ErrorCode.INTENT_NOT_FOUND);
      },
    });

  beforeAll(async () => {
    h = await createHarness();
    await send('POST', `/v1/orgs/${ORG}/oid4vp/verifier`, { verifierId: 'desk' });
    // The ecosystem lead's template: the requesting organisation uses it but signs with its own keys.
    leadTemplateId = (await send('POST', `/v1/orgs/${LEAD_ORG}/oid4vp/verification-template`, { name: 'Age', templateJson: { dcql: { query: mdocQuery() } }, signerOption: 'X509_ED25519', clientIdPrefix: 'x509_san_dns' }, LEAD_ORG)).json().data.id;
    ecosystem = await h.connectPeer('ecosystem-stub');
    stop = serveIntentResolve();
    await ecosystem.ping();
  });
  afterAll(async () => {
    stop?.();
    await ecosystem.close();
    await h.close();
  });

  it('resolves the intent, uses the template\'s query and signer, signs with the requesting organisation\'s key, returns the notice', async () => {
    const response = await createIntent('age-check');
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data;
    expect(received.at(-1)).toEqual({ ecosystemId: ECOSYSTEM, intent: 'age-check', orgId: ORG, role: 'verifier' });
    expect(data.clientId).toBe('x509_san_dns:verifier.tessera.test');
    expect(data.notice).toEqual(NOTICE);
    const caPem = h.ca.certificatePem;
    const resolved = await resolveAsWallet({ app: h.app, caPem, authorizationRequestUri: data.authorizationRequestUri });
    expect(resolved.authorizationRequestPayload.dcql_query).toEqual({ credentials: mdocQuery().credentials });
    expect(resolved.jar?.jwt.header.alg).toBe('EdDSA');
    const leaf = (await send('GET', `/v1/orgs/${ORG}/oid4vp/certificates/ED25519`)).json().data;
    expect(resolved.jar?.jwt.header.x5c?.[0]).toBe(leaf.certificateChainPem.replace(/-----[A-Z ]+-----|\s/g, ''));
    const overridden = await createIntent('age-check', { requestSigner: { method: 'DID' } });
    expect(overridden.json().data.clientId).toMatch(/^decentralized_identifier:did:jwk:/);
  });

  it('keeps the status and code of resolution errors', async () => {
    expect((await createIntent('outsider')).json()).toMatchObject({ statusCode: 403, code: 'NOT_A_MEMBER' });
    expect((await createIntent('unknown')).json()).toMatchObject({ statusCode: 404, code: 'INTENT_NOT_FOUND' });
    expect((await createIntent('ecosystem-down')).json()).toMatchObject({ statusCode: 404, code: 'ECOSYSTEM_NOT_FOUND' });
    expect((await createIntent('gone')).json()).toMatchObject({ statusCode: 404, code: 'VERIFICATION_TEMPLATE_NOT_FOUND' });
    // A reply that breaks the contract: `serveRequests` checks its own replies, so only a raw responder can send one.
    stop();
    const stopBroken = ecosystem.respond(intentResolveRpc.subject, intentResolveRpc.queue, async () => ({ ok: true, data: { unexpected: true } }));
    await ecosystem.ping();
    expect((await createIntent('broken')).json()).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE', message: expect.stringMatching(/breaks the contract/) });
    stopBroken();
    stop = serveIntentResolve();
    await ecosystem.ping();
  });

  it('checks its own input before asking the ecosystem service', async () => {
    const before = received.length;
    expect((await createIntent('age-check', {}, `verifierId=nobody&ecosystemId=${ECOSYSTEM}`)).json().code).toBe('VERIFIER_NOT_FOUND');
    expect((await createIntent('age-check', { responseMode: 'dc_api' })).json().code).toBe('EXPECTED_ORIGINS_REQUIRED');
    expect((await createIntent('age-check', { expectedOrigins: ['https://rp.example'] })).json().code).toBe('EXPECTED_ORIGINS_NOT_ALLOWED');
    expect((await createIntent('age-check', {}, 'verifierId=desk&ecosystemId=not-a-uuid')).statusCode).toBe(400);
    expect((await createIntent('age-check', {}, 'verifierId=desk')).statusCode).toBe(400);
    expect((await send('POST', `/v1/orgs/${ORG}/oid4vp/intent-based-verification-presentation?verifierId=desk&ecosystemId=${ECOSYSTEM}`, { responseMode: 'direct_post' })).statusCode).toBe(400);
    expect(received.length).toBe(before);
  });

  it('refuses to delete a template an open session uses (409 TEMPLATE_IN_USE)', async () => {
    expect((await createIntent('age-check')).statusCode).toBe(201);
    const refused = await send('DELETE', `/v1/orgs/${LEAD_ORG}/oid4vp/verification-template/${leadTemplateId}`, undefined, LEAD_ORG);
    expect(refused.json()).toMatchObject({ statusCode: 409, code: 'TEMPLATE_IN_USE' });
  });

  it('answers verifier.v1.verification-template.get for the ecosystem service', async () => {
    const reply = await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { templateId: leadTemplateId });
    expect(Value.Check(NatsReply(VerificationTemplateSummarySchema), reply)).toBe(true);
    expect(reply).toEqual({ ok: true, data: { id: leadTemplateId, orgId: LEAD_ORG, name: 'Age', signerOption: 'X509_ED25519' } });
    expect(await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { templateId: randomUUID() })).toMatchObject({ ok: false, error: { statusCode: 404, code: 'VERIFICATION_TEMPLATE_NOT_FOUND' } });
    expect(await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { templateId: 'x' })).toMatchObject({ ok: false, error: { statusCode: 404 } });
    expect(await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { nope: 1 })).toMatchObject({ ok: false, error: { statusCode: 400, code: 'VALIDATION_FAILED' } });
  });

  it('answers 503 DEPENDENCY_UNAVAILABLE when nothing answers', async () => {
    const count = async () => (await send('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation`)).json().data.totalItems as number;
    const before = await count();
    stop();
    await ecosystem.ping();
    const response = await createIntent('age-check');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', message: expect.stringMatching(/ecosystem service/) });
    expect(await count()).toBe(before);
  });
});

